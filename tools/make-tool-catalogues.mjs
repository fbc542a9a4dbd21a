// Rebuilds the tool catalogues of the tool-selection evaluation (ctxpack-bench `eval tools`) from
// pinned npm packages, all MIT-licensed:
//
//   mkdir /tmp/tc && cd /tmp/tc && npm init -y >/dev/null
//   PUPPETEER_SKIP_DOWNLOAD=true npm install --no-audit --no-fund $(node <this file> --packages)
//   node <this file> /tmp/tc <project>/ctxpack-bench/src/main/resources/dev/ctxpack/bench/tools
//
// mcp-servers.json: each official MCP reference server is started over stdio (with dummy
// credentials: tools/list makes no outside call) and asked `tools/list` (the Redis and Google Drive servers
// are left out: they need a live Redis or an OAuth credentials file before they answer); its tools are kept
// verbatim, in the server's order, with the server's package and version.
// github-rest.openapi.json: the operations of GitHub's REST API description (@octokit/openapi,
// dereferenced) of the whole groups named in GROUPS below (the operationId's prefix), verbatim (paths, methods,
// operationId, summary, description, parameters, requestBody), with the rest of the document dropped.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const SERVERS = {
  "@modelcontextprotocol/server-github": "2025.4.8",
  "@modelcontextprotocol/server-gitlab": "2025.4.25",
  "@modelcontextprotocol/server-slack": "2025.4.25",
  "@modelcontextprotocol/server-filesystem": "2025.8.21",
  "@modelcontextprotocol/server-memory": "2025.4.25",
  "@modelcontextprotocol/server-google-maps": "0.6.2",
  "@modelcontextprotocol/server-brave-search": "0.6.2",
  "@modelcontextprotocol/server-puppeteer": "2025.5.12",
  "@modelcontextprotocol/server-postgres": "0.6.2",
  "@modelcontextprotocol/server-sequential-thinking": "0.6.2",
  "@modelcontextprotocol/server-everart": "0.6.2",
  "@modelcontextprotocol/server-aws-kb-retrieval": "0.6.2",
};
const OCTOKIT = ["@octokit/openapi", "23.0.2"];
// Server arguments a server needs to start (a directory, a connection string).
const ARGS = {
  "@modelcontextprotocol/server-filesystem": ["/tmp"],
  "@modelcontextprotocol/server-postgres": ["postgresql://localhost/unused"],
};
const ENV = {
  GITHUB_PERSONAL_ACCESS_TOKEN: "unused", GITLAB_PERSONAL_ACCESS_TOKEN: "unused", SLACK_BOT_TOKEN: "unused",
  SLACK_TEAM_ID: "unused", GOOGLE_MAPS_API_KEY: "unused", BRAVE_API_KEY: "unused", EVERART_API_KEY: "unused",
  AWS_ACCESS_KEY_ID: "unused", AWS_SECRET_ACCESS_KEY: "unused", AWS_REGION: "us-east-1",
};
// Issues, pull requests, search and gists: every operation of these groups, none picked by hand.
const GROUPS = ["issues", "pulls", "search", "gists"];

if (process.argv[2] === "--packages") {
  console.log([...Object.entries(SERVERS), OCTOKIT].map(([p, v]) => `${p}@${v}`).join(" "));
  process.exit(0);
}
const [root, outDir] = process.argv.slice(2);
if (!root || !outDir) throw new Error("usage: node make-tool-catalogues.mjs NODE_PROJECT OUT_DIR");

function toolsList(pkg) {
  const dir = path.join(root, "node_modules", pkg);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  if (meta.version !== SERVERS[pkg]) throw new Error(`${pkg}: installed ${meta.version}, pinned ${SERVERS[pkg]}`);
  const bin = typeof meta.bin === "string" ? meta.bin : Object.values(meta.bin)[0];
  return new Promise((resolve, reject) => {
    const child = spawn("node", [path.join(dir, bin), ...(ARGS[pkg] ?? [])], { env: { ...process.env, ...ENV } });
    let buf = "";
    const timer = setTimeout(() => { child.kill(); reject(new Error(`${pkg}: no tools/list answer in 20 s`)); }, 20000);
    child.stdout.on("data", (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
        let msg; try { msg = JSON.parse(line); } catch { continue; }
        if (msg.id === 1) {
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }) + "\n");
        } else if (msg.id === 2) {
          clearTimeout(timer); child.kill();
          resolve({ package: pkg, version: meta.version, license: meta.license, tools: msg.result.tools });
        }
      }
    });
    child.on("error", reject);
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {
      protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "ctxpack-catalogue", version: "0.1" } } }) + "\n");
  });
}

const servers = [];
for (const pkg of Object.keys(SERVERS)) servers.push(await toolsList(pkg));
fs.writeFileSync(path.join(outDir, "mcp-servers.json"), JSON.stringify({ servers }, null, 1) + "\n");

const octo = path.join(root, "node_modules", OCTOKIT[0]);
const version = JSON.parse(fs.readFileSync(path.join(octo, "package.json"), "utf8")).version;
if (version !== OCTOKIT[1]) throw new Error(`${OCTOKIT[0]}: installed ${version}, pinned ${OCTOKIT[1]}`);
const spec = JSON.parse(fs.readFileSync(path.join(octo, "generated", "api.github.com.deref.json"), "utf8"));
const paths = {};
let count = 0;
for (const [p, item] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (!op || !op.operationId || !GROUPS.includes(op.operationId.split("/")[0])) continue;
    count++;
    const keep = { operationId: op.operationId, summary: op.summary, description: op.description, parameters: op.parameters };
    if (op.requestBody) keep.requestBody = op.requestBody;
    (paths[p] ??= {})[method] = keep;
  }
}
const out = { openapi: spec.openapi, info: { title: spec.info.title, version: spec.info.version,
  "x-source": `${OCTOKIT[0]}@${OCTOKIT[1]} generated/api.github.com.deref.json`, license: spec.info.license }, paths };
fs.writeFileSync(path.join(outDir, "github-rest.openapi.json"), JSON.stringify(out, null, 1) + "\n");
console.log(`${servers.reduce((n, s) => n + s.tools.length, 0)} MCP tools from ${servers.length} servers; ${count} GitHub operations`);
