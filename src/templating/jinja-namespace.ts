/**
 * Jinja's `namespace()` and attribute assignment to it (`{% set ns.found = true %}`), the idiom
 * for carrying a value out of a loop body. nunjucks 3.2.4 parses `ns.found` as a `set` target but
 * compiles it as a variable literally named `undefined` (and crashes); the shim below compiles an
 * attribute target into a call that writes the attribute, and only on `namespace()` objects, as
 * Jinja does: assigning into resource data or any other object is a render error.
 */
import nunjucks from 'nunjucks';
import { InvalidArgumentError } from '../core/errors.js';

const namespaces = new WeakSet<object>();

/** A Jinja `namespace(key=value, ...)` object: a plain object whose attributes templates may set. */
export function createJinjaNamespace(attributes: Readonly<Record<string, unknown>>): object {
  const ns: Record<string, unknown> = { ...attributes };
  namespaces.add(ns);
  return ns;
}

/** Writes `ns.<attribute> = value` for a compiled `{% set ns.attribute = value %}`. */
function setNamespaceAttribute(
  target: unknown,
  attribute: string,
  value: unknown,
  targetName: string,
): void {
  if (typeof target !== 'object' || target === null || !namespaces.has(target)) {
    throw new InvalidArgumentError(
      `cannot set ${targetName}.${attribute}: only namespace() objects take attribute assignment ` +
        `(create it with {% set ${targetName} = namespace(${attribute}=...) %})`,
    );
  }
  // defineProperty, not `=`: an attribute named __proto__ stays an ordinary own field.
  Object.defineProperty(target, attribute, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

interface Node {
  readonly lineno: number;
  readonly colno: number;
}
interface LookupValNode extends Node {
  readonly target: Node & { readonly value?: unknown };
  readonly val: Node & { readonly value?: unknown };
}
interface SetNode extends Node {
  readonly targets: readonly Node[];
  readonly value: Node | null;
  readonly body: Node | null;
}
interface Compiler {
  _tmpid(): string;
  _emit(code: string): void;
  _emitLine(code: string): void;
  _compileExpression(node: Node, frame: unknown): void;
  compile(node: Node, frame: unknown): void;
  fail(message: string, lineno: number, colno: number): never;
}
type CompileSet = (this: Compiler, node: SetNode, frame: unknown) => void;

let installed = false;

/**
 * Teaches nunjucks' compiler (process-wide, once) to compile `{% set name.attribute = ... %}`
 * and the block form `{% set name.attribute %}...{% endset %}`. Other `set` tags compile as before.
 */
export function installNamespaceAssignment(): void {
  if (installed) return;
  installed = true;
  const lib = nunjucks as unknown as {
    compiler: { Compiler: { prototype: { compileSet: CompileSet } } };
    nodes: { LookupVal: new () => object; Symbol: new () => object; Literal: new () => object };
    runtime: Record<string, unknown>;
  };
  const { LookupVal, Symbol: SymbolNode, Literal } = lib.nodes;
  lib.runtime['hapticSetNamespaceAttribute'] = setNamespaceAttribute;
  const original = lib.compiler.Compiler.prototype.compileSet;
  lib.compiler.Compiler.prototype.compileSet = function (node, frame) {
    if (!node.targets.some((t) => t instanceof LookupVal)) {
      original.call(this, node, frame);
      return;
    }
    const [target, ...others] = node.targets as LookupValNode[];
    if (
      target === undefined ||
      others.length > 0 ||
      !(target.target instanceof SymbolNode) ||
      !(target.val instanceof Literal) ||
      typeof target.val.value !== 'string' ||
      typeof target.target.value !== 'string'
    ) {
      this.fail(
        'set: an attribute target must be the only target and have the form name.attribute',
        node.lineno,
        node.colno,
      );
    }
    const id = this._tmpid();
    this._emit(`var ${id} = `);
    if (node.value) this._compileExpression(node.value, frame);
    else if (node.body) this.compile(node.body, frame);
    this._emitLine(';');
    // Positions for runtime.handleError, like nunjucks' own function calls record them.
    this._emitLine(`lineno = ${String(node.lineno)}; colno = ${String(node.colno)};`);
    this._emit('runtime.hapticSetNamespaceAttribute(');
    this._compileExpression(target.target, frame);
    this._emitLine(
      `, ${JSON.stringify(target.val.value)}, ${id}, ${JSON.stringify(target.target.value)});`,
    );
  };
}
