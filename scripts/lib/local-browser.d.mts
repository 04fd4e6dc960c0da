/** Types of local-browser.mjs: wrangler dev's Browser Rendering on this machine's Chromium. */
export declare const localBrowserCache: string;
export declare function miniflareChromeVersion(): string;
export declare function localBrowserEnv(): Promise<{ env: Record<string, string>; source?: string; executablePath?: string; reason?: string }>;
