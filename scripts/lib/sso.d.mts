/** Types of sso.mjs: an org's single sign-on through the Worker's /api/v1/org/sso. */
interface Target {
  remote?: boolean;
  persistTo?: string;
  config?: string;
}
export interface SsoView {
  issuer: string;
  clientId: string;
  emailDomains: string[];
  defaultRole: "member" | "admin";
  required: boolean;
  providerName: string;
  updatedAt: number;
}
export declare function setSso(
  input: { org: string; issuer: string; clientId: string; clientSecret?: string; domains: string[]; defaultRole?: "member" | "admin"; required?: boolean; url?: string } & Target,
): Promise<SsoView>;
export declare function showSso(input: { org: string; url?: string } & Target): Promise<SsoView | null>;
export declare function removeSso(input: { org: string; url?: string } & Target): Promise<null>;
