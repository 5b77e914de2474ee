// Writes .br and .gz beside every compressible built client file, so the server never compresses them per request.
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const clientDir = path.resolve(import.meta.dirname, "../build/client");
const compressible = /\.(js|css|html|svg|json|txt|xml|webmanifest|map)$/;

let files = 0;
for (const entry of await readdir(clientDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !compressible.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const body = await readFile(file);
  await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  files += 1;
}
console.log(`compressed ${files} client files (brotli + gzip)`);
