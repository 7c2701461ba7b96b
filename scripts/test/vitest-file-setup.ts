/**
 * Every test file starts as if it had its worker to itself, though workers run one file after another
 * (vitest.config.ts, `isolate: false`): before the file is imported, the environment is the one the
 * worker began with, the project's modules are evaluated afresh (their state, a noted deploy context or
 * a mocked language list, is the file's own), timers are real, and stubs and mocks are undone.
 * Packages under node_modules stay loaded: that is what a worker of its own per file paid for again.
 */
import { vi } from "vitest";

const scope = globalThis as { __workerEnv?: Record<string, string | undefined> };
scope.__workerEnv ??= { ...process.env };
const workerEnv = scope.__workerEnv;

vi.useRealTimers();
vi.unstubAllEnvs();
vi.unstubAllGlobals();
vi.restoreAllMocks();
vi.resetModules();
for (const name of Object.keys(process.env)) if (!(name in workerEnv)) delete process.env[name];
for (const [name, value] of Object.entries(workerEnv)) if (value !== undefined) process.env[name] = value;
