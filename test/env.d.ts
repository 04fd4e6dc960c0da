import type { D1Migration } from "@cloudflare/vitest-plugin";
import type { Env as CairnEnv } from "../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends Omit<CairnEnv, "OAUTH_PROVIDER"> {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
