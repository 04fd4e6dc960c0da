/** Types of chromium.mjs: the local Chromium the browser tests and wrangler dev's Browser Rendering run. */
export interface FoundBrowser {
  executablePath: string;
  source: string;
  env?: Record<string, string>;
}
export declare const SYSTEM_BROWSERS: string[];
export declare function findBrowser(): Promise<FoundBrowser>;
