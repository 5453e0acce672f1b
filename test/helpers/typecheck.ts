/** Type-checks a TypeScript project in-process, as `tsc -p <project> --noEmit` would. */
import ts from 'typescript';
import { dirname, resolve } from 'node:path';

export interface TypecheckResult {
  /** Every diagnostic, formatted like tsc's output ("" when there are none). */
  errors: string;
  /** The files the program read (to tell where an import resolved). */
  files: string[];
}

/**
 * Reads `tsconfig` (a tsconfig.json path), compiles the project and returns its diagnostics. `extra`
 * adds files that exist only in memory (absolute path → text), compiled with the project's own.
 */
export function typecheck(tsconfig: string, extra: Record<string, string> = {}): TypecheckResult {
  const read = ts.readConfigFile(tsconfig, (path) => ts.sys.readFile(path));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(tsconfig), undefined, tsconfig);
  const options = { ...parsed.options, noEmit: true };
  const virtual = new Map(Object.entries(extra).map(([path, text]) => [resolve(path), text]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile } = host;
  host.fileExists = (path) => virtual.has(resolve(path)) || fileExists.call(host, path);
  host.readFile = (path) => virtual.get(resolve(path)) ?? readFile.call(host, path);
  const program = ts.createProgram({ rootNames: [...parsed.fileNames, ...virtual.keys()], options, host });
  const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
  const format: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => dirname(tsconfig),
    getNewLine: () => '\n',
  };
  return { errors: ts.formatDiagnostics(diagnostics, format), files: program.getSourceFiles().map((f) => f.fileName) };
}
