// A small OpenID Connect provider standing in for Google in end-to-end tests: discovery, an
// account chooser at the authorization endpoint (shown every time, as prompt=select_account asks),
// authorization codes with PKCE, RS256-signed ID tokens, JWKS and userinfo.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

const port = Number(process.env.OIDC_PORT ?? 4320);
const issuer = `http://127.0.0.1:${port}`;
const clientId = process.env.OIDC_CLIENT_ID ?? "academy-test-client";
const clientSecret = process.env.OIDC_CLIENT_SECRET ?? "academy-test-secret";

const accounts = [
  { sub: "g-1001", name: "Gauri Learner", email: "gauri.learner@example.com", picture: `${issuer}/avatar/g-1001.png` },
  { sub: "g-1002", name: "Vivek Builder", email: "vivek.builder@example.com", picture: `${issuer}/avatar/g-1002.png` },
];

interface Grant {
  account: (typeof accounts)[number];
  redirectUri: string;
  nonce: string | undefined;
  codeChallenge: string | undefined;
}

const { publicKey, privateKey } = await generateKeyPair("RS256");
const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
const codes = new Map<string, Grant>();
const tokens = new Map<string, Grant["account"]>();

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

function clientAuthenticated(req: IncomingMessage, form: URLSearchParams): boolean {
  const basic = req.headers.authorization?.match(/^Basic (.+)$/)?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent);
    return id === clientId && secret === clientSecret;
  }
  return form.get("client_id") === clientId && form.get("client_secret") === clientSecret;
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", issuer);
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    res.end(JSON.stringify(body));
  };

  if (url.pathname === "/.well-known/openid-configuration") {
    return json(200, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "email", "profile"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256"],
      prompt_values_supported: ["none", "consent", "select_account"],
    });
  }
  if (url.pathname === "/jwks") return json(200, { keys: [jwk] });

  if (url.pathname === "/authorize" && req.method === "GET") {
    const p = url.searchParams;
    if (p.get("client_id") !== clientId) return json(400, { error: "invalid_client" });
    if (p.get("response_type") !== "code") return json(400, { error: "unsupported_response_type" });
    if (!p.get("prompt")?.split(" ").includes("select_account")) return json(400, { error: "prompt=select_account expected" });
    const hidden = ["redirect_uri", "state", "nonce", "code_challenge"]
      .map((name) => `<input type="hidden" name="${name}" value="${escape(p.get(name) ?? "")}">`)
      .join("");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    return res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Choose an account</title></head>
<body><main><h1>Choose an account</h1><p>to continue to Academy</p>
${accounts.map((a) => `<form method="post" action="/authorize">${hidden}<input type="hidden" name="sub" value="${a.sub}"><button type="submit">${escape(a.name)} ${escape(a.email)}</button></form>`).join("\n")}
</main></body></html>`);
  }
  if (url.pathname === "/authorize" && req.method === "POST") {
    const form = await readBody(req);
    const account = accounts.find((a) => a.sub === form.get("sub"));
    const redirectUri = form.get("redirect_uri") ?? "";
    if (!account || !redirectUri) return json(400, { error: "invalid_request" });
    const code = randomBytes(16).toString("hex");
    codes.set(code, { account, redirectUri, nonce: form.get("nonce") || undefined, codeChallenge: form.get("code_challenge") || undefined });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    if (form.get("state")) back.searchParams.set("state", form.get("state") ?? "");
    back.searchParams.set("iss", issuer);
    res.writeHead(302, { Location: back.toString() });
    return res.end();
  }

  if (url.pathname === "/token" && req.method === "POST") {
    const form = await readBody(req);
    if (!clientAuthenticated(req, form)) return json(401, { error: "invalid_client" });
    const grant = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? "");
    if (!grant || grant.redirectUri !== form.get("redirect_uri")) return json(400, { error: "invalid_grant" });
    if (grant.codeChallenge) {
      const verifier = form.get("code_verifier") ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== grant.codeChallenge) return json(400, { error: "invalid_grant" });
    }
    const accessToken = randomBytes(24).toString("hex");
    tokens.set(accessToken, grant.account);
    const idToken = await new SignJWT({ ...grant.account, email_verified: true, ...(grant.nonce ? { nonce: grant.nonce } : {}) })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setIssuer(issuer)
      .setAudience(clientId)
      .setSubject(grant.account.sub)
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(privateKey);
    return json(200, { access_token: accessToken, token_type: "Bearer", expires_in: 600, id_token: idToken, scope: "openid email profile" });
  }

  if (url.pathname === "/userinfo") {
    const account = tokens.get(req.headers.authorization?.replace(/^Bearer /, "") ?? "");
    if (!account) return json(401, { error: "invalid_token" });
    return json(200, { ...account, email_verified: true });
  }
  json(404, { error: "not_found" });
});

server.listen(port, "127.0.0.1", () => process.stdout.write(`test OpenID provider at ${issuer}\n`));
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => server.close(() => process.exit(0)));
