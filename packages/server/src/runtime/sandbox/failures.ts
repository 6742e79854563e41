// Where a run is and what went wrong there: frames are cheap objects, turned into text only when
// something fails; data model checks (ajv standalone validators) answer failures naming the port.
import { errorText, isArray, RunError } from './base.ts';
import type { CheckedPort, Def, Frame, Lines, Values } from './types.d.ts';

/** The file name stack traces show for program lines (the compiler names the program so). */
export const PROGRAM_FILE = 'gdb-program.js';

export function rootFrame(def: Def): Frame {
  return { parent: null, def, instance: null, index: -1, kids: null };
}

function path(frame: Frame): string {
  const parts = [];
  for (let f: Frame | null = frame; f !== null; f = f.parent) {
    const label = f.instance === null ? f.def.name : f.instance;
    parts.push(f.index >= 0 ? `${label}[${f.index}]` : label);
  }
  return parts.reverse().join(' › ');
}

function who(def: Def, frame: Frame): string {
  const at = frame.parent === null && frame.index < 0 ? '' : ` at ${path(frame)}`;
  return `Component "${def.name}" v${def.version}${at}`;
}

export function fail(def: Def, frame: Frame, message: string): RunError {
  return new RunError(`${who(def, frame)}: ${message}`);
}

/** The line of the component's own code an error comes from, read from the stack. */
function codeLine(error: unknown, lines: Lines | null): string {
  const stack = error !== null && typeof error === 'object' ? (error as { stack?: unknown }).stack : undefined;
  if (typeof stack !== 'string' || !lines) return '';
  const re = new RegExp(`${PROGRAM_FILE}:(\\d+):(\\d+)`, 'g');
  for (let m = re.exec(stack); m !== null; m = re.exec(stack)) {
    const line = Number(m[1]);
    if (line >= lines[0] && line <= lines[1]) return ` (line ${line - lines[0] + 1} of its code)`;
  }
  return '';
}

export function codeError(error: unknown, def: Def, frame: Frame, what: string, lines: Lines | null): RunError {
  if (error instanceof RunError) return error;
  return new RunError(`${who(def, frame)}${what}: ${errorText(error)}${codeLine(error, lines)}`);
}

function checkValue(def: Def, frame: Frame, port: CheckedPort, direction: string, value: unknown): void {
  const model = port.model;
  if (port.each) {
    if (!isArray(value)) {
      throw fail(
        def,
        frame,
        `${direction} port "${port.name}" needs an array: its data model "${model.name}" describes each element`,
      );
    }
    for (let i = 0; i < value.length; i++) {
      if (!model.validate(value[i])) throw modelError(def, frame, port, direction, `/${i}`);
    }
  } else if (!model.validate(value)) {
    throw modelError(def, frame, port, direction, '');
  }
}

function modelError(def: Def, frame: Frame, port: CheckedPort, direction: string, prefix: string): RunError {
  const first = (port.model.validate.errors || [])[0];
  const at = `${prefix}${first ? first.instancePath : ''}` || '/';
  const why = first ? first.message : 'is invalid';
  return fail(
    def,
    frame,
    `${direction} port "${port.name}": the value does not match data model "${port.model.name}" v${port.model.version} at ${at}: ${why}`,
  );
}

export function checkPorts(def: Def, frame: Frame, ports: CheckedPort[], direction: string, values: Values): void {
  for (let p = 0; p < ports.length; p++) {
    const port = ports[p] as CheckedPort;
    const value = values[port.name];
    if (value !== undefined) checkValue(def, frame, port, direction, value);
  }
}
