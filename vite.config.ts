import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    // Inline nothing into JS as data URLs: CSP and caching work on real files.
    assetsInlineLimit: 0,
  },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // Few, larger first-load files instead of a dozen 1 KB ones: each request costs a round trip
            // on a slow phone connection. Route modules stay separate and load lazily.
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/ },
                { name: "shared", test: /[\\/]app[\\/](components|lib)[\\/]/ },
              ],
            },
          },
        },
      },
    },
  },
});
