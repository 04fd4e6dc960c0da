import { describe, expect, it } from "vitest";
import { Visitor } from "../support/dashboard";
import { createPlan, ok } from "../support/plans";
import { seedTenant } from "../support/worker";

describe("the dashboard page of a deliverable (where ChatGPT's links lead)", () => {
  it("shows the deliverable to a signed-in member as text, with its citations; another org sees nothing; a visitor is sent to sign in", async () => {
    const { admin, apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Scan] Heat pumps" });
    const content = "# Heat pumps\n\nChoose ground-source. <script>alert(1)</script>";
    const { outputId } = (await ok(apiKey, "store_research_output", {
      planId,
      title: "Heat pump report",
      mediaType: "markdown",
      content,
      citations: [{ ref: "E1", title: "NREL study", url: "https://nrel.gov/x" }, { title: "A book without a URL" }],
    })) as { outputId: string };
    const { url } = (await ok(apiKey, "fetch", { id: outputId })) as { url: string };
    const path = new URL(url).pathname;
    expect(path).toBe(`/dashboard/outputs/${outputId}`);

    const stranger = new Visitor();
    const redirected = await stranger.get(path);
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get("location")).toContain("/dashboard/sign-in");

    const visitor = new Visitor();
    await visitor.signIn(admin.email, admin.password);
    const page = await visitor.get(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Heat pump report");
    expect(html).toContain("← [Scan] Heat pumps</a>");
    expect(html).toContain("Choose ground-source. &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain('href="https://nrel.gov/x"');
    expect(html).toContain("A book without a URL");
    expect(html).toContain(`href="/dashboard/plans/${planId}"`);

    const other = await seedTenant();
    const outsider = new Visitor();
    await outsider.signIn(other.admin.email, other.admin.password);
    expect((await outsider.get(path)).status).toBe(404);
  });
});
