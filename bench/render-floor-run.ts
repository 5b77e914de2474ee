// The measuring half of bench/render-floor-worker.ts (see there), loaded once module resolution is set up.
import path from "node:path";
import { createRequestHandler, RouterContextProvider, type RouterContext, type ServerBuild } from "react-router";
import { appServices, documentRequest, viewerContext } from "../server/context.ts";
import { createHttpApp } from "../server/http/app.ts";
import { inlineStylesheet, loadStaticAssets } from "../server/http/static-assets.ts";
import { httpDepsOf, startServices } from "../server/runtime.ts";
import { perRun } from "./cpu.ts";
import { root } from "./server.ts";

export interface FloorPage {
  path: string;
  headers: Record<string, string>;
}

export interface FloorMode {
  requests: number;
  cpuMs: number;
  wallMs: number;
}

export interface FloorResult {
  path: string;
  htmlBytes: number;
  full: FloorMode;
  inMemory: FloorMode;
  floor: FloorMode;
  /** Milliseconds a request inside entry.server's render, during the floor's requests. */
  reactMs: number;
}

type Route = NonNullable<ServerBuild["routes"][string]>;
type Module = Route["module"];
type Viewer = typeof viewerContext extends RouterContext<infer T> ? T : never;
type Loader = NonNullable<Module["loader"]>;
type Middleware = NonNullable<Module["middleware"]>[number];

/**
 * The build with each route's loader answering, after its first call for a path, the data it gave
 * then (and the server HTML it handed the document), and the root middleware setting the viewer it
 * found then: the same pages, with nothing asked of the database or the session store.
 */
function inMemoryBuild(build: ServerBuild, renderMs: { total: number }): ServerBuild {
  const kept = new Map<string, { data: unknown; serverHtml: [string, string][] }>();
  const viewers = new Map<string, Viewer>();
  const keep = (id: string, loader: Loader): Loader => async (args: Parameters<Loader>[0]) => {
    const key = `${id} ${new URL(args.request.url).pathname}`;
    const { serverHtml } = args.context.get(documentRequest);
    const found = kept.get(key);
    if (found) {
      for (const [name, html] of found.serverHtml) serverHtml.set(name, html);
      return found.data;
    }
    const before = new Set(serverHtml.keys());
    const data: unknown = await loader(args);
    kept.set(key, { data, serverHtml: [...serverHtml].filter(([name]) => !before.has(name)) });
    return data;
  };
  const viewerKept = (middleware: Middleware): Middleware => async (args: Parameters<Middleware>[0], next: Parameters<Middleware>[1]) => {
    const key = new URL(args.request.url).pathname;
    if (viewers.has(key)) {
      args.context.set(viewerContext, viewers.get(key) ?? null);
      return next();
    }
    return middleware(args, async () => {
      viewers.set(key, args.context.get(viewerContext));
      return next();
    });
  };
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const module: Module = { ...(route as Route).module };
      if (module.loader) module.loader = keep(id, module.loader);
      if (module.middleware) module.middleware = module.middleware.map(viewerKept);
      return [id, { ...route, module }];
    }),
  );
  const render = build.entry.module.default;
  const timed: typeof render = async (...args) => {
    const started = performance.now();
    try {
      return await render(...args);
    } finally {
      renderMs.total += performance.now() - started;
    }
  };
  return { ...build, routes, entry: { module: { ...build.entry.module, default: timed } } };
}

/** Requests one after another for `seconds` (after 30 to warm up): CPU and wall milliseconds each. */
async function measure(seconds: number, request: () => Promise<unknown>): Promise<FloorMode> {
  const { runs, cpuMs, wallMs } = await perRun(seconds, 30, request);
  return { requests: runs, cpuMs, wallMs };
}

export async function runFloor({ pages, seconds }: { pages: FloorPage[]; seconds: number }, environment: Record<string, string | undefined>): Promise<FloorResult[]> {
  const services = await startServices(environment);
  const build = (await import(path.join(root, "build/server/index.js"))) as ServerBuild;
  const assets = await loadStaticAssets(path.join(root, "build/client"));
  const renderMs = { total: 0 };
  const kept = inMemoryBuild(build, renderMs);
  const deps = { ...httpDepsOf(services), production: false, dev: false, pageCacheSeconds: 0, assets };
  const fullApp = createHttpApp({ ...deps, build });
  const inMemoryApp = createHttpApp({ ...deps, build: kept });
  const handle = createRequestHandler(kept, "production");
  // The floor's context: loaders and middleware answer from memory, so only the document's own values are read.
  const floorContext = () => {
    const context = new RouterContextProvider();
    context.set(appServices, { reportError: (error: unknown) => console.error(error) } as never);
    context.set(documentRequest, { nonce: "floor", inlineStylesheet: (href) => inlineStylesheet(assets, href)?.text, dataRequest: false, serverHtml: new Map() });
    return context;
  };

  const results: FloorResult[] = [];
  for (const page of pages) {
    const url = `${services.config.publicUrl}${page.path}`;
    const ask = (app: typeof fullApp) => async () => {
      const response = await app.fetch(new Request(url, { headers: page.headers }));
      if (response.status !== 200) throw new Error(`${page.path} answered ${response.status}`);
      return response.arrayBuffer();
    };
    const full = await measure(seconds, ask(fullApp));
    const inMemory = await measure(seconds, ask(inMemoryApp));
    const floorRequest = async () => {
      const response = await handle(new Request(url, { headers: page.headers }), floorContext());
      if (response.status !== 200) throw new Error(`${page.path} answered ${response.status} to the floor`);
      return response.arrayBuffer();
    };
    const htmlBytes = ((await floorRequest()) as ArrayBuffer).byteLength;
    renderMs.total = 0;
    const floor = await measure(seconds, floorRequest);
    // measure() made 30 warm-up requests before it counted.
    const reactMs = Math.round((renderMs.total / (floor.requests + 30)) * 1000) / 1000;
    results.push({ path: page.path, htmlBytes, full, inMemory, floor, reactMs });
  }
  await services.database.close();
  return results;
}
