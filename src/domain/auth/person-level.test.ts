import { describe, expect, it } from "vitest";
import { assertPersonLevel } from "./person-level";

describe("a person's change", () => {
  it("is made in the dashboard with the form's token, or with the person scope", () => {
    expect(() => assertPersonLevel({ via: "dashboard", csrfChecked: true }, "This")).not.toThrow();
    expect(() => assertPersonLevel({ via: "credential", scopes: ["org:admin", "plans:approve"] }, "This")).not.toThrow();
  });

  it("is refused to an assistant's credential, even an admin's, and to a form without its token", () => {
    expect(() => assertPersonLevel({ via: "credential", scopes: ["research:read", "research:write", "org:admin"] }, "Changing single sign-on")).toThrow(/plans:approve/);
    expect(() => assertPersonLevel({ via: "dashboard", csrfChecked: false }, "This")).toThrow(/person's change/);
  });
});
