import { deflateSync } from "node:zlib";
import { getDocumentProxy } from "unpdf";
const MB = Number(process.argv[2] ?? 100);
const content = Buffer.alloc(MB * 1024 * 1024, 0x20); // spaces
const z = deflateSync(content, { level: 9 });
const head = "%PDF-1.4\n";
const objs = [
  "<< /Type /Catalog /Pages 2 0 R >>",
  "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
];
let out = Buffer.from(head);
const offs = [];
for (const [i, o] of objs.entries()) { offs.push(out.length); out = Buffer.concat([out, Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`)]); }
offs.push(out.length);
out = Buffer.concat([out, Buffer.from(`4 0 obj\n<< /Length ${z.length} /Filter /FlateDecode >>\nstream\n`), z, Buffer.from("\nendstream\nendobj\n")]);
const xref = out.length;
out = Buffer.concat([out, Buffer.from(`xref\n0 5\n0000000000 65535 f \n${offs.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`)]);
console.log("file bytes", out.length);
const t = process.cpuUsage();
const pdf = await getDocumentProxy(new Uint8Array(out), { verbosity: 0 });
const page = await pdf.getPage(1);
const c = await page.getTextContent();
const u = process.cpuUsage(t);
console.log("items", c.items.length, "cpu ms", (u.user + u.system) / 1000, "rss MB", Math.round(process.memoryUsage().rss / 1e6));
