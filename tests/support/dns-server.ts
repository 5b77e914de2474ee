// A DNS server on UDP (RFC 1035), standing in for the internet's resolvers in tests: the server's
// own resolver (node:dns, HOSTING_DNS_SERVERS) asks it where a customer's domain points. Its answers
// follow the name asked about, so a test picks the outcome by the domain it buys:
//   pointed-…   A and AAAA records of `target`, `www` a CNAME to the domain itself
//   elsewhere-… an A record of another host (198.51.100.7), no `www`
//   broken-…    the server fails (SERVFAIL), as a resolver in trouble does
//   anything else: no such domain (NXDOMAIN)
import { createSocket, type Socket } from "node:dgram";
import { isIP } from "node:net";

const types = { A: 1, CNAME: 5, AAAA: 28 } as const;
type Answer = { type: number; data: Buffer };

/** Another host's address, which the site page reports as pointing elsewhere. */
export const elsewhereAddress = "198.51.100.7";

const groups = (part: string) => (part ? part.split(":") : []);

function ipv6Bytes(address: string): Buffer {
  const [head = "", tail] = address.split("::");
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array.from({ length: 8 - left.length - right.length }, () => "0"), ...right];
  return Buffer.from(all.flatMap((group) => [Number.parseInt(group, 16) >> 8, Number.parseInt(group, 16) & 255]));
}

const addressBytes = (address: string) => (isIP(address) === 4 ? Buffer.from(address.split(".").map(Number)) : ipv6Bytes(address));

function nameBytes(name: string): Buffer {
  return Buffer.concat([...name.split(".").map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, "ascii")])), Buffer.from([0])]);
}

/** The question's name, type and where it ends. */
function readQuestion(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let at = 12;
  for (let length = query[at] ?? 0; length > 0; length = query[at] ?? 0) {
    labels.push(query.subarray(at + 1, at + 1 + length).toString("ascii"));
    at += 1 + length;
  }
  return { name: labels.join(".").toLowerCase(), type: query.readUInt16BE(at + 1), end: at + 5 };
}

function answersFor(name: string, type: number, target: { ipv4: string[]; ipv6: string[] }): Answer[] | "nxdomain" | "servfail" {
  const apex = name.replace(/^www\./, "");
  const www = apex !== name;
  if (apex.startsWith("broken-")) return "servfail";
  if (apex.startsWith("pointed-")) {
    if (www) return type === types.CNAME ? [{ type, data: nameBytes(apex) }] : [];
    if (type === types.A) return target.ipv4.map((address) => ({ type, data: addressBytes(address) }));
    if (type === types.AAAA) return target.ipv6.map((address) => ({ type, data: addressBytes(address) }));
    return [];
  }
  if (apex.startsWith("elsewhere-") && !www) return type === types.A ? [{ type, data: addressBytes(elsewhereAddress) }] : [];
  return "nxdomain";
}

function reply(query: Buffer, target: { ipv4: string[]; ipv6: string[] }): Buffer {
  const question = readQuestion(query);
  const found = answersFor(question.name, question.type, target);
  const answers = Array.isArray(found) ? found : [];
  const rcode = found === "nxdomain" ? 3 : found === "servfail" ? 2 : 0;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // A response (QR), recursion desired as asked and available (RA), with the result code.
  header.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const records = answers.map(({ type, data }) => {
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    fixed.writeUInt16BE(type, 2);
    fixed.writeUInt16BE(1, 4); // class IN
    fixed.writeUInt32BE(60, 6);
    fixed.writeUInt16BE(data.length, 10);
    return Buffer.concat([fixed, data]);
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...records]);
}

/** Starts the server on 127.0.0.1 (port 0: any free one); `address` is what HOSTING_DNS_SERVERS takes. */
export async function startDnsServer(target: { ipv4: string[]; ipv6: string[] }, port = 0): Promise<{ address: string; close(): Promise<void> }> {
  const socket: Socket = createSocket("udp4");
  socket.on("message", (query, peer) => {
    if (query.length < 17) return;
    socket.send(reply(query, target), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(port, "127.0.0.1", resolve));
  // It serves whoever started it, and never keeps that process from ending.
  socket.unref();
  return {
    address: `127.0.0.1:${socket.address().port}`,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
