// pi 0.73.1's RpcClient starts `node <cliPath> --mode rpc ...`; this file stands in for
// cliPath and runs the binary named by PI_BIN with the same arguments and streams (a
// `.js` PI_BIN, such as pi 0.73.1's own cli.js, runs under node).
import { spawn } from "node:child_process";

const bin = process.env.PI_BIN;
const [command, args] = bin.endsWith(".js")
	? [process.execPath, [bin, ...process.argv.slice(2)]]
	: [bin, process.argv.slice(2)];
const child = spawn(command, args, { stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
	process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
