// pi 0.73.1's RpcClient starts `node <cliPath> --mode rpc ...`; this file stands in for
// cliPath and runs the binary named by PI_BIN with the same arguments and streams.
import { spawn } from "node:child_process";

const child = spawn(process.env.PI_BIN, process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
	process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
