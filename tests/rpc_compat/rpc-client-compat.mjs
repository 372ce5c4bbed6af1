// pi 0.73.1's own RpcClient (from the npm package named by PI_ORACLE_PACKAGE) drives
// our binary (PI_BIN) through every public method, checking each result's shape and the
// order of the events. Prints "ok <n> checks" and exits 0, or names the first failure.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = process.env.PI_ORACLE_PACKAGE;
const { RpcClient } = await import(pathToFileURL(join(pkg, "dist/index.js")).href);
assert.equal(typeof RpcClient, "function", "the package exports RpcClient");

let checks = 0;
const check = (what, fn) => {
	try {
		fn();
		checks++;
	} catch (e) {
		e.message = `${what}: ${e.message}`;
		throw e;
	}
};
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const types = (events) => events.map((e) => e.type);
const nextEvent = (client, type) =>
	new Promise((resolve) => {
		const off = client.onEvent((e) => {
			if (e.type === type) {
				off();
				resolve(e);
			}
		});
	});

const client = new RpcClient({
	cliPath: join(here, "pi-shim.mjs"),
	cwd: process.env.PI_PROJECT,
	provider: "mock",
	model: "mock-model",
});
const seen = [];
client.onEvent((e) => seen.push(e));
await client.start();

try {
	// State and models.
	const state = await client.getState();
	check("getState", () => {
		assert.equal(state.model.id, "mock-model");
		assert.equal(state.isStreaming, false);
		assert.equal(state.messageCount, 0);
		for (const key of ["thinkingLevel", "steeringMode", "followUpMode", "sessionId"]) {
			assert.equal(typeof state[key], "string", key);
		}
		assert.equal(typeof state.autoCompactionEnabled, "boolean");
	});
	const models = await client.getAvailableModels();
	check("getAvailableModels", () => {
		assert.deepEqual(models.map((m) => m.id).sort(), ["mock-model", "mock-thinker"]);
	});
	const noLevel = await client.cycleThinkingLevel();
	check("cycleThinkingLevel without thinking is null", () => assert.equal(noLevel, null));
	// The raw responses: `data: null` where pi sends it, no `data` where it sends none.
	const raw = await client.send({ type: "cycle_thinking_level" });
	check("cycle_thinking_level response carries data: null", () => {
		assert.ok("data" in raw, JSON.stringify(raw));
		assert.equal(raw.data, null);
	});
	for (const command of [
		{ type: "set_thinking_level", level: "off" },
		{ type: "set_auto_retry", enabled: true },
		{ type: "abort_retry" },
		{ type: "abort" },
	]) {
		const response = await client.send(command);
		check(`${command.type} response has no data`, () => {
			assert.equal(response.success, true);
			assert.ok(!("data" in response), JSON.stringify(response));
		});
	}
	const set = await client.setModel("mock", "mock-thinker");
	check("setModel", () => assert.equal(set.id, "mock-thinker"));
	await client.setThinkingLevel("high");
	const level = await client.cycleThinkingLevel();
	check("cycleThinkingLevel", () => assert.ok(isObject(level) && typeof level.level === "string"));
	const cycled = await client.cycleModel();
	check("cycleModel", () => {
		assert.equal(cycled.model.id, "mock-model");
		assert.equal(typeof cycled.thinkingLevel, "string");
		assert.equal(cycled.isScoped, false);
	});
	await client.setSteeringMode("one-at-a-time");
	await client.setFollowUpMode("one-at-a-time");
	await client.setAutoCompaction(false);
	await client.setAutoRetry(false);
	await client.abortRetry();
	const modes = await client.getState();
	check("setters", () => {
		assert.equal(modes.steeringMode, "one-at-a-time");
		assert.equal(modes.autoCompactionEnabled, false);
	});

	// A prompt: its events in order.
	const events = await client.promptAndWait("hello");
	check("prompt event order", () => {
		const t = types(events);
		assert.equal(t[0], "agent_start");
		assert.equal(t.at(-1), "agent_end");
		const at = (type, from = 0) => t.indexOf(type, from);
		assert.ok(at("turn_start") < at("message_start"));
		const assistantStart = events.findIndex((e) => e.type === "message_start" && e.message.role === "assistant");
		assert.ok(events[at("message_start")].message.role === "user");
		assert.ok(at("message_end") < assistantStart);
		assert.ok(assistantStart < at("message_update"));
		assert.ok(at("message_update") < at("turn_end"));
		assert.ok(at("turn_end") < at("agent_end"));
	});
	const text = await client.getLastAssistantText();
	check("getLastAssistantText", () => assert.equal(text, "Reply to: hello"));
	const messages = await client.getMessages();
	check("getMessages", () => assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"]));

	// abort() resolves after the run ended; the next prompt sees none of it.
	const streaming = nextEvent(client, "message_update");
	await client.prompt("SLOW first");
	await streaming;
	const before = seen.length;
	await client.abort();
	const atAbort = seen.length;
	check("abort waits for agent_end", () => assert.ok(types(seen.slice(before, atAbort)).includes("agent_end")));
	const next = await client.promptAndWait("after abort");
	check("no event of the aborted run after abort()", () => {
		const later = seen.slice(atAbort);
		assert.equal(later[0].type, "agent_start");
		assert.ok(!JSON.stringify(later).includes("SLOW"), JSON.stringify(types(later)));
		assert.equal(next.at(-1).type, "agent_end");
	});

	// queue_update for steer, follow-up and a queued prompt, then as the queue drains.
	const streaming2 = nextEvent(client, "message_update");
	const idle = client.waitForIdle();
	await client.prompt("SLOW second");
	await streaming2;
	const queuedFrom = seen.length;
	await client.steer("s1");
	await client.followUp("f1");
	const queued = await client.send({ type: "prompt", message: "f2", streamingBehavior: "followUp" });
	check("queued prompt accepted", () => assert.equal(queued.success, true));
	await idle;
	// Follow-ups run in the same agent run or in the ones that follow it.
	while (!seen.some((e) => e.type === "message_start" && JSON.stringify(e.message).includes("f2"))) {
		await client.waitForIdle();
	}
	const updates = seen.slice(queuedFrom).filter((e) => e.type === "queue_update");
	check("queue_update on every change", () => {
		assert.deepEqual(updates.slice(0, 3).map((u) => [u.steering, u.followUp]), [
			[["s1"], []],
			[["s1"], ["f1"]],
			[["s1"], ["f1", "f2"]],
		]);
		const last = updates.at(-1);
		assert.deepEqual([last.steering, last.followUp], [[], []]);
	});

	// Bash.
	const bash = await client.bash("echo compat");
	check("bash", () => {
		assert.equal(bash.output, "compat\n");
		assert.equal(bash.exitCode, 0);
		assert.equal(bash.cancelled, false);
		assert.equal(bash.truncated, false);
	});
	await client.abortBash();

	// Session.
	const stats = await client.getSessionStats();
	check("getSessionStats", () => {
		assert.equal(typeof stats.sessionId, "string");
		assert.ok(stats.userMessages >= 3);
		assert.ok(isObject(stats.tokens) && typeof stats.tokens.total === "number");
		assert.equal(typeof stats.cost, "number");
	});
	await client.setSessionName("compat run");
	const named = await client.getState();
	check("session name", () => assert.equal(named.sessionName, "compat run"));
	const html = await client.exportHtml(join(process.env.PI_PROJECT, "out.html"));
	check("exportHtml", () => {
		assert.ok(existsSync(html.path));
		assert.ok(readFileSync(html.path, "utf8").includes("<html"));
	});
	const compacted = await client.compact();
	check("compact", () => {
		assert.equal(typeof compacted.summary, "string");
		assert.equal(typeof compacted.tokensBefore, "number");
	});
	const commands = await client.getCommands();
	check("getCommands", () => {
		const greet = commands.find((c) => c.name === "greet");
		assert.equal(greet.source, "prompt");
		assert.ok(isObject(greet.sourceInfo));
	});
	const forkable = await client.getForkMessages();
	check("getForkMessages", () => {
		assert.ok(forkable.length >= 1);
		assert.equal(typeof forkable[0].entryId, "string");
		assert.equal(typeof forkable[0].text, "string");
	});
	const oldFile = (await client.getState()).sessionFile;
	const forked = await client.fork(forkable[0].entryId);
	check("fork", () => {
		assert.equal(forked.cancelled, false);
		assert.equal(forked.text, forkable[0].text);
	});
	await client.prompt("in the fork");
	await client.waitForIdle();
	const cloned = await client.clone();
	check("clone", () => assert.equal(cloned.cancelled, false));
	const fresh = await client.newSession();
	check("newSession", () => assert.equal(fresh.cancelled, false));
	const empty = await client.getState();
	check("new session is empty", () => assert.equal(empty.messageCount, 0));
	const switched = await client.switchSession(oldFile);
	check("switchSession", () => assert.equal(switched.cancelled, false));
	const back = await client.getState();
	check("switched back", () => assert.equal(back.sessionFile, oldFile));
	check("getStderr", () => assert.equal(typeof client.getStderr(), "string"));
	check("no response leaked as an event", () =>
		assert.ok(!seen.some((e) => e.type === "response" && e.success === false), JSON.stringify(seen.filter((e) => e.type === "response"))));
} finally {
	await client.stop();
}
console.log(`ok ${checks} checks`);
