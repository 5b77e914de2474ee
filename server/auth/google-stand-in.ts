// An OpenID Connect provider that stands in for Google where real Google cannot be used: on a
// fresh development start without credentials (mounted under /dev/google) and in the end-to-end
// tests (served on its own port). It speaks the protocol Better Auth speaks to Google: discovery,
// an account chooser at the authorization endpoint (shown every time, as prompt=select_account
// asks), authorization codes with PKCE, RS256-signed ID tokens, JWKS and userinfo.
import { createHash, randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { escapeHtml } from "../escape-html.ts";

export interface StandInAccount {
  sub: string;
  name: string;
  email: string;
  picture: string;
}

interface Grant {
  account: StandInAccount;
  redirectUri: string;
  nonce: string | undefined;
  codeChallenge: string | undefined;
}

export interface GoogleStandIn {
  issuer: string;
  /** Answers a request whose path lies under the issuer's path; `nonce` lets the chooser's style pass a CSP. */
  handle(request: Request, nonce?: string): Promise<Response>;
  /** The token endpoint, called in process by the server it runs in: the tokens for a code, or null for a bad code. */
  exchange(grant: { code: string; redirectURI: string; codeVerifier?: string | undefined }): Promise<StandInTokens | null>;
  /** The userinfo endpoint, in process: the account an access token was issued for. */
  userInfo(accessToken: string | undefined): StandInAccount | null;
}

export interface StandInTokens {
  accessToken: string;
  idToken: string;
  tokenType: "Bearer";
  accessTokenExpiresAt: Date;
  scopes: string[];
}

/** Where the app serves the stand-in on a development start without Google credentials. */
export const googleStandInPath = "/dev/google";

const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;
const codeLifetimeMs = 60_000;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });

const initials = (name: string) =>
  name
    .split(/\s+/)
    .map((part) => part[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();

function avatarSvg(account: StandInAccount): string {
  const hue = Number.parseInt(createHash("sha256").update(account.sub).digest("hex").slice(0, 4), 16) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" fill="hsl(${hue} 55% 40%)"/><text x="48" y="60" font-family="sans-serif" font-size="36" fill="#fff" text-anchor="middle">${escapeHtml(initials(account.name))}</text></svg>`;
}

export async function createGoogleStandIn(options: {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the account chooser, so nobody takes it for Google. */
  notice?: string;
}): Promise<GoogleStandIn> {
  const issuer = options.issuer.replace(/\/$/, "");
  const base = new URL(issuer).pathname.replace(/\/$/, "");
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "stand-in-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, Grant & { expires: number }>();
  const tokens = new Map<string, StandInAccount>();
  const account = (sub: string, name: string, email: string): StandInAccount => ({ sub, name, email, picture: `${issuer}/avatar/${sub}.svg` });
  const accounts = [account("g-1001", "Gauri Learner", "gauri.learner@example.com"), account("g-1002", "Vivek Builder", "vivek.builder@example.com")];
  // The listed accounts, and those typed in since this process started (for their pictures).
  const known = new Map(accounts.map((a) => [a.sub, a]));

  function clientAuthenticated(request: Request, form: URLSearchParams): boolean {
    const basic = request.headers.get("authorization")?.match(/^Basic (.+)$/)?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent);
      return id === options.clientId && secret === options.clientSecret;
    }
    return form.get("client_id") === options.clientId && form.get("client_secret") === options.clientSecret;
  }

  function chooser(params: URLSearchParams, nonce: string | undefined, problem?: string): Response {
    const hidden = ["redirect_uri", "state", "nonce", "code_challenge"]
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params.get(name) ?? "")}">`)
      .join("");
    const action = `${base}/authorize`;
    const choices = accounts
      .map(
        (a) =>
          `<li><form method="post" action="${action}">${hidden}<input type="hidden" name="sub" value="${a.sub}"><button type="submit"><img src="${a.picture}" alt="" width="40" height="40"><span><strong>${escapeHtml(a.name)}</strong> ${escapeHtml(a.email)}</span></button></form></li>`,
      )
      .join("");
    const style = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f1f5f9;color:#0f172a}main{max-width:26rem;margin:2rem auto;background:#fff;border-radius:1rem;padding:1.5rem 1.75rem;box-shadow:0 1px 3px #0002}h1{font-size:1.5rem;margin:.25rem 0}.notice{background:#fef3c7;border:1px solid #f59e0b;border-radius:.5rem;padding:.5rem .75rem;font-size:.875rem}ul{list-style:none;padding:0}li button{display:flex;gap:.75rem;align-items:center;width:100%;text-align:left;background:none;border:0;border-bottom:1px solid #e2e8f0;padding:.75rem .25rem;font:inherit;cursor:pointer}li button:hover,li button:focus-visible{background:#f1f5f9}li span{display:flex;flex-direction:column}img{border-radius:50%}label{display:block;margin-top:.75rem;font-weight:600}input:not([type=hidden]){box-sizing:border-box;width:100%;padding:.5rem;border:1px solid #94a3b8;border-radius:.375rem;font:inherit}.submit{margin-top:1rem;padding:.5rem 1.25rem;border-radius:999px;border:0;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}.problem{color:#b91c1c;font-weight:600}`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>Choose an account</title><style${nonce ? ` nonce="${nonce}"` : ""}>${style}</style></head>
<body><main><p class="notice" role="note">${escapeHtml(options.notice ?? "A stand-in for Google sign-in. This page is not Google.")}</p><h1>Choose an account</h1><p>to continue to Academy</p>
<ul>${choices}</ul>
<h2>Use another account</h2>
${problem ? `<p class="problem" role="alert" id="problem">${escapeHtml(problem)}</p>` : ""}
<form method="post" action="${action}">${hidden}<label for="name">Name</label><input id="name" name="name" autocomplete="name" required maxlength="100" value="${escapeHtml(params.get("name") ?? "")}"${problem ? ' aria-describedby="problem"' : ""}><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(params.get("email") ?? "")}"${problem ? ' aria-describedby="problem"' : ""}><button class="submit" type="submit">Continue</button></form>
</main></body></html>`;
    return new Response(html, { status: problem ? 400 : 200, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  }

  /** A listed account, or one the person typed in (its subject derived from the address, so it is stable). */
  function chosenAccount(form: URLSearchParams): StandInAccount | string {
    const listed = accounts.find((a) => a.sub === form.get("sub"));
    if (listed) return listed;
    const name = (form.get("name") ?? "").trim();
    const email = (form.get("email") ?? "").trim().toLowerCase();
    if (!name || name.length > 100) return "Keep your name under 100 characters.";
    if (!emailPattern.test(email)) return "Enter an e-mail address such as name@example.com.";
    const typed = account(`dev-${createHash("sha256").update(email).digest("hex").slice(0, 16)}`, name, email);
    known.set(typed.sub, typed);
    return typed;
  }

  async function authorize(request: Request, nonce: string | undefined): Promise<Response> {
    if (request.method === "GET") {
      const params = new URL(request.url).searchParams;
      if (params.get("client_id") !== options.clientId) return json(400, { error: "invalid_client" });
      if (params.get("response_type") !== "code") return json(400, { error: "unsupported_response_type" });
      if (!params.get("redirect_uri")) return json(400, { error: "invalid_request" });
      if (!params.get("prompt")?.split(" ").includes("select_account")) return json(400, { error: "prompt=select_account expected" });
      return chooser(params, nonce);
    }
    const form = new URLSearchParams(await request.text());
    const redirectUri = form.get("redirect_uri") ?? "";
    if (!URL.canParse(redirectUri)) return json(400, { error: "invalid_request" });
    const chosen = chosenAccount(form);
    if (typeof chosen === "string") return chooser(form, nonce, chosen);
    const code = randomBytes(16).toString("hex");
    codes.set(code, {
      account: chosen,
      redirectUri,
      nonce: form.get("nonce") || undefined,
      codeChallenge: form.get("code_challenge") || undefined,
      expires: Date.now() + codeLifetimeMs,
    });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    if (form.get("state")) back.searchParams.set("state", form.get("state") ?? "");
    back.searchParams.set("iss", issuer);
    return new Response(null, { status: 302, headers: { Location: back.toString() } });
  }

  async function token(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    if (!clientAuthenticated(request, form)) return json(401, { error: "invalid_client" });
    const code = form.get("code") ?? "";
    const grant = codes.get(code);
    codes.delete(code);
    if (!grant || grant.expires < Date.now() || grant.redirectUri !== form.get("redirect_uri")) return json(400, { error: "invalid_grant" });
    if (grant.codeChallenge) {
      const verifier = form.get("code_verifier") ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== grant.codeChallenge) return json(400, { error: "invalid_grant" });
    }
    const accessToken = randomBytes(24).toString("hex");
    tokens.set(accessToken, grant.account);
    const idToken = await new SignJWT({ ...grant.account, email_verified: true, ...(grant.nonce ? { nonce: grant.nonce } : {}) })
      .setProtectedHeader({ alg: "RS256", kid: jwk.kid })
      .setIssuer(issuer)
      .setAudience(options.clientId)
      .setSubject(grant.account.sub)
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(privateKey);
    return json(200, { access_token: accessToken, token_type: "Bearer", expires_in: 600, id_token: idToken, scope: "openid email profile" });
  }

  return {
    issuer,
    async exchange({ code, redirectURI, codeVerifier }) {
      const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectURI, client_id: options.clientId, client_secret: options.clientSecret });
      if (codeVerifier) form.set("code_verifier", codeVerifier);
      const answer = await token(new Request(`${issuer}/token`, { method: "POST", body: form }));
      if (!answer.ok) return null;
      const body = (await answer.json()) as { access_token: string; id_token: string; expires_in: number; scope: string };
      return {
        accessToken: body.access_token,
        idToken: body.id_token,
        tokenType: "Bearer",
        accessTokenExpiresAt: new Date(Date.now() + body.expires_in * 1000),
        scopes: body.scope.split(" "),
      };
    },
    userInfo: (accessToken) => tokens.get(accessToken ?? "") ?? null,
    async handle(request, nonce) {
      const path = new URL(request.url).pathname.slice(base.length);
      if (path === "/.well-known/openid-configuration") {
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
      if (path === "/jwks") return json(200, { keys: [jwk] });
      if (path === "/authorize" && (request.method === "GET" || request.method === "POST")) return authorize(request, nonce);
      if (path === "/token" && request.method === "POST") return token(request);
      if (path === "/userinfo") {
        const holder = tokens.get(request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "");
        return holder ? json(200, { ...holder, email_verified: true }) : json(401, { error: "invalid_token" });
      }
      const avatar = path.match(/^\/avatar\/([\w-]{1,40})\.svg$/)?.[1];
      // A picture whose account this process no longer knows (typed in before a restart) is a plain placeholder.
      const pictured = avatar ? (known.get(avatar) ?? account(avatar, "?", "")) : undefined;
      if (pictured) return new Response(avatarSvg(pictured), { headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" } });
      return json(404, { error: "not_found" });
    },
  };
}
