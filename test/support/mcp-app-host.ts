/**
 * A host for MCP Apps in a test page, built from ext-apps' own host-side bridge
 * (AppBridge + PostMessageTransport): the app runs in a sandboxed iframe
 * (scripts only, opaque origin), as Claude and ChatGPT run it. Bundled for the
 * browser by the test with esbuild; `window.cairnHost.start(...)` drives it.
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

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
}

/** The few DOM parts used here (the project's types are the Workers runtime's, without the DOM library). */
interface FrameElement {
  id: string;
  srcdoc: string;
  style: { cssText: string };
  contentWindow: (Window & typeof globalThis) | null;
  setAttribute(name: string, value: string): void;
}
interface PageGlobals {
  document: { createElement(tag: "iframe"): FrameElement; body: { append(node: FrameElement): void } };
  cairnHost: { start(options: StartOptions): Promise<void>; setTheme(theme: "light" | "dark"): void; calls: CallRecord[] };
  /** Exposed by the test: forwards a tools/call to the real Cairn with the user's own credential. */
  forwardToolCall(call: CallRecord): Promise<unknown>;
}
type Window = { postMessage(message: unknown, target: string): void };

const page = globalThis as unknown as PageGlobals;
let bridge: AppBridge | undefined;
const calls: CallRecord[] = [];

page.cairnHost = {
  calls,
  async start({ html, toolName, toolArguments, toolResult, serverTools, theme }) {
    const iframe = page.document.createElement("iframe");
    iframe.id = "app";
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.style.cssText = "width:100%;height:600px;border:1px solid #ccc";
    page.document.body.append(iframe);
    const capabilities = serverTools ? { serverTools: {} } : {};
    bridge = new AppBridge(null, { name: "cairn-test-host", version: "1.0.0" }, capabilities, {
      hostContext: { theme, platform: "web", toolInfo: { tool: { name: toolName, inputSchema: { type: "object" } } } },
    });
    if (serverTools) {
      bridge.oncalltool = async (params) => {
        const call = { name: params.name, arguments: params.arguments };
        calls.push(call);
        return (await page.forwardToolCall(call)) as never;
      };
    }
    bridge.oninitialized = () => {
      void bridge?.sendToolInput({ arguments: toolArguments }).then(() => bridge?.sendToolResult(toolResult as never));
    };
    const contentWindow = iframe.contentWindow;
    if (!contentWindow) throw new Error("no iframe window");
    await bridge.connect(new PostMessageTransport(contentWindow as never, contentWindow as never));
    iframe.srcdoc = html;
  },
  setTheme(theme) {
    bridge?.setHostContext({ theme });
  },
};
