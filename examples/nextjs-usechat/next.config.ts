import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // This folder is the app's root, not the repository around it.
  turbopack: { root: dirname(fileURLToPath(import.meta.url)) },
};

export default nextConfig;
