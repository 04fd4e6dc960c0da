/**
 * A host for MCP Apps in a test page, built from ext-apps' own host-side bridge
 * (AppBridge + PostMessageTransport): the app runs in a sandboxed iframe
 * (scripts only, opaque origin), as Claude and ChatGPT run it. Bundled for the
 * browser by the test with esbuild; `window.cairnHost.start(...)` drives it.
 */
import { AppBridge, type McpUiHostContext, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface CallRecord {
  name: string;
  arguments?: Record<string, unknown>;
}

interface StartOptions {
  html: string;
  toolName: string;
  toolArguments: Record<string, unknown>;
  toolResult: unknown;
  serverTools: boolean;
  theme: "light" | "dark";
  /** The display modes this host offers (inline only when absent). */
  displayModes?: ("inline" | "fullscreen" | "pip")[];
  /** Whether the host accepts ui/update-model-context. */
  modelContext?: boolean;
  /** Arguments streamed before the whole input (ui/notifications/tool-input-partial), in order. */
  partialArguments?: Record<string, unknown>[];
  /** The call is cancelled with this reason (ui/notifications/tool-cancelled) instead of answered. */
  cancelledWith?: string;
}

/** The few DOM parts used here (the project's types are the Workers runtime's, without the DOM library). */
interface FrameElement {
  id: string;
  srcdoc: string;
  remove(): void;
  style: { cssText: string };
  contentWindow: (Window & typeof globalThis) | null;
  setAttribute(name: string, value: string): void;
}
interface PageGlobals {
  document: { createElement(tag: "iframe"): FrameElement; body: { append(node: FrameElement): void } };
  cairnHost: {
    start(options: StartOptions): Promise<void>;
    reload(): Promise<void>;
    setTheme(theme: "light" | "dark"): void;
    calls: CallRecord[];
    /** Every ui/update-model-context the app sent, in order (a host keeps the last). */
    modelContexts: unknown[];
    displayModeRequests: string[];
    /** Every link the app asked the host to open (ui/open-link), in order. */
    openedLinks: string[];
  };
  /** Exposed by the test: forwards a tools/call to the real Cairn with the user's own credential. */
  forwardToolCall(call: CallRecord): Promise<unknown>;
}
type Window = { postMessage(message: unknown, target: string): void };

const page = globalThis as unknown as PageGlobals;
let bridge: AppBridge | undefined;
let hostContext: McpUiHostContext = {};
/** setHostContext takes the whole context and sends the app what changed. */
const updateContext = (change: McpUiHostContext) => {
  hostContext = { ...hostContext, ...change };
  bridge?.setHostContext(hostContext);
};
let frame: FrameElement | undefined;
let started: StartOptions | undefined;
const calls: CallRecord[] = [];
const modelContexts: unknown[] = [];
const displayModeRequests: string[] = [];
const openedLinks: string[] = [];

page.cairnHost = {
  calls,
  modelContexts,
  displayModeRequests,
  openedLinks,
  async start(options) {
    started = options;
    const { html, toolName, toolArguments, toolResult, serverTools, theme, displayModes = ["inline"], modelContext = false } = options;
    const iframe = page.document.createElement("iframe");
    frame = iframe;
    iframe.id = "app";
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.style.cssText = "width:100%;height:600px;border:1px solid #ccc";
    page.document.body.append(iframe);
    const capabilities = { ...(serverTools ? { serverTools: {} } : {}), ...(modelContext ? { updateModelContext: { text: {} } } : {}) };
    hostContext = {
      theme,
      platform: "web",
      displayMode: "inline",
      availableDisplayModes: displayModes,
      toolInfo: { tool: { name: toolName, inputSchema: { type: "object" } } },
    };
    const host = new AppBridge(null, { name: "cairn-test-host", version: "1.0.0" }, capabilities, { hostContext });
    bridge = host;
    if (modelContext) {
      host.onupdatemodelcontext = async (params) => {
        modelContexts.push(params);
        return {};
      };
    }
    // As a host does: switch only to a mode both sides offer, answer with the mode now in force, and say so in the context.
    // As a host does: open the link in the person's browser (recorded here), and answer that it did.
    host.onopenlink = async ({ url }) => {
      openedLinks.push(url);
      return {};
    };
    host.onrequestdisplaymode = async ({ mode }) => {
      displayModeRequests.push(mode);
      const appModes = host.getAppCapabilities()?.availableDisplayModes ?? [];
      const current = hostContext.displayMode ?? "inline";
      const next = displayModes.includes(mode) && appModes.includes(mode) ? mode : current;
      if (next !== current) updateContext({ displayMode: next });
      iframe.style.cssText = next === "fullscreen" ? "position:fixed;inset:0;width:100vw;height:100vh;border:0" : "width:100%;height:600px;border:1px solid #ccc";
      return { mode: next };
    };
    if (serverTools) {
      bridge.oncalltool = async (params) => {
        const call = { name: params.name, arguments: params.arguments };
        calls.push(call);
        return (await page.forwardToolCall(call)) as never;
      };
    }
    bridge.oninitialized = () => {
      void (async () => {
        for (const partial of options.partialArguments ?? []) await bridge?.sendToolInputPartial({ arguments: partial });
        await bridge?.sendToolInput({ arguments: toolArguments });
        if (options.cancelledWith !== undefined) await bridge?.sendToolCancelled({ reason: options.cancelledWith });
        else await bridge?.sendToolResult(toolResult as never);
      })();
    };
    const contentWindow = iframe.contentWindow;
    if (!contentWindow) throw new Error("no iframe window");
    await bridge.connect(new PostMessageTransport(contentWindow as never, contentWindow as never));
    iframe.srcdoc = html;
  },
  /** A reload: the app starts over in a fresh frame and gets the same tool input and result as the first time (hosts keep no app state). */
  async reload() {
    if (!started) throw new Error("not started");
    await bridge?.close();
    frame?.remove();
    await page.cairnHost.start(started);
  },
  setTheme(theme) {
    updateContext({ theme });
  },
};
