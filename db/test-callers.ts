/**
 * Who ran each statement of a test file's database, for the PostgreSQL 15 pass's choice of files
 * (db/test-setup.ts, scripts/test/database-tests.mjs): the test file itself (its own reads, to check
 * what a request stored, and its own set-up) or the product's code (a repository, a handler, a
 * helper). A file kept in that pass only for statements of its own would check nothing of the
 * product there. Recorded only in npm test's first pass (SQL_COVERAGE_FILE).
 */
import {
  PostgresQueryCompiler,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import { looseShape } from "../scripts/test/database-tests.mjs";

const compiler = new PostgresQueryCompiler();
/** Frames that are not the caller: Kysely, pg, Node, and this file. */
const NOT_THE_CALLER = /node_modules|node:|test-callers\.ts/;

/** The file that called Kysely, from the stack of a statement being compiled (synchronously, in `execute`). */
function callerFile(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  for (const line of stack.split("\n").slice(1)) {
    const file = /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/.exec(line)?.[1];
    if (file && !NOT_THE_CALLER.test(line)) return file;
  }
  return undefined;
}

/** A Kysely plugin that notes each statement's loose shape under who ran it. */
export class CallerRecorder implements KyselyPlugin {
  /** Shapes run by a test file's own code. */
  readonly ownReads = new Set<string>();
  /** Shapes run by anything else: the product's code, or a shared test helper. */
  readonly product = new Set<string>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const file = callerFile();
    const shape = looseShape(compiler.compileQuery(node, queryId).sql);
    (file?.endsWith(".test.ts") ? this.ownReads : this.product).add(shape);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
