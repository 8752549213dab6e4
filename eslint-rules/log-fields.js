// ESLint rule `local/log-fields`: log by allow-list. A log line (a pino call: trace ... fatal,
// child) names each field it logs, so that no request, context, headers or option bag (and the
// passwords, keys and tokens they hold) ever reaches the log by being passed whole:
// - its fields are an object literal (or only a message string), never a variable or a call;
// - each field is text, a number, a flag or a list of them; `err` may also be an Error;
// - a spread is allowed only of a `LogFields` value (src/base/log.ts), and every `LogFields`
//   value is itself such a literal where it is made (a helper that passes fields on takes one).
// A field that must log a checked object says why with an eslint-disable comment.
'use strict';
const ts = require('typescript');
const { ESLintUtils } = require('@typescript-eslint/utils');

/** The methods of a pino logger that write (or bind) fields. */
const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'child']);

/** Type flags of the values a field may hold as they are. */
const PRIMITIVE =
  ts.TypeFlags.StringLike |
  ts.TypeFlags.NumberLike |
  ts.TypeFlags.BooleanLike |
  ts.TypeFlags.BigIntLike |
  ts.TypeFlags.EnumLike |
  ts.TypeFlags.Null |
  ts.TypeFlags.Undefined |
  ts.TypeFlags.Void |
  ts.TypeFlags.Never;

module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'log lines name their fields (log by allow-list): no secret reaches a log by accident' },
    schema: [],
    messages: {
      notLiteral:
        'Log by allow-list: give the fields as an object literal naming each one, never a request, context, headers or options object.',
      spread:
        'Log by allow-list: name each field instead of spreading `{{what}}` (only a LogFields value may be spread).',
      computed: 'Log by allow-list: name the field (no computed key).',
      objectField:
        "Log by allow-list: field '{{name}}' is an object ({{type}}); log the named fields it needs (text, numbers, flags, lists of them).",
      errField: "Log by allow-list: 'err' must be an Error (errorOf(err) for a caught unknown).",
    },
  },

  create(context) {
    const services = ESLintUtils.getParserServices(context);
    const checker = services.program.getTypeChecker();
    const typeOf = (node) => services.getTypeAtLocation(node);

    /** Whether `type` is a pino logger (maybe undefined). */
    const isLogger = (type) => {
      const t = checker.getNonNullableType(type);
      return ['child', 'isLevelEnabled', 'levels', 'fatal'].every((name) => t.getProperty(name) !== undefined);
    };

    /** Whether `type` is (or, in a union, may be) the LogFields interface. */
    const isLogFields = (type) => {
      const members = type.isUnion() ? type.types : [type];
      return members.some((t) => (t.aliasSymbol ?? t.symbol)?.getName() === 'LogFields');
    };

    /** Whether a value of `type` may go into a log line as it is: text, a number, a flag, or a list of those. */
    const loggable = (type, inList = false) => {
      if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return false;
      if (type.flags & PRIMITIVE) return true;
      if (type.isUnion()) return type.types.every((t) => loggable(t, inList));
      // A branded string or number (`string & { brand }`) is still text.
      if (type.isIntersection()) return type.types.some((t) => loggable(t, inList));
      if (type.flags & ts.TypeFlags.TypeParameter) {
        const constraint = checker.getBaseConstraintOfType(type);
        return constraint !== undefined && constraint !== type && loggable(constraint, inList);
      }
      if (!inList && (checker.isArrayType(type) || checker.isTupleType(type)))
        return checker.getTypeArguments(type).every((t) => loggable(t, true));
      return false;
    };

    /** Whether `type` is an Error (structurally: a name and a message). */
    const isError = (type) => {
      const t = checker.getNonNullableType(type);
      const members = t.isUnion() ? t.types : [t];
      return members.every((m) => m.getProperty('message') !== undefined && m.getProperty('name') !== undefined);
    };

    /** Reports what is wrong with the fields literal `node`. */
    const checkLiteral = (node) => {
      for (const property of node.properties) {
        if (property.type === 'SpreadElement') {
          if (!isLogFields(typeOf(property.argument)))
            context.report({
              node: property,
              messageId: 'spread',
              data: { what: context.sourceCode.getText(property.argument).slice(0, 60) },
            });
          continue;
        }
        if (property.computed) {
          context.report({ node: property, messageId: 'computed' });
          continue;
        }
        const name = property.key.type === 'Identifier' ? property.key.name : String(property.key.value);
        const type = typeOf(property.value);
        if (name === 'err') {
          if (!loggable(type) && !isError(type)) context.report({ node: property, messageId: 'errField' });
        } else if (!loggable(type)) {
          context.report({
            node: property,
            messageId: 'objectField',
            data: { name, type: checker.typeToString(type).slice(0, 80) },
          });
        }
      }
    };

    /** Checks `node` where its fields go into a log line (or a LogFields value). */
    const checkFields = (node, passThroughOk) => {
      const inner = node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' ? node.expression : node;
      if (inner.type === 'ObjectExpression') return checkLiteral(inner);
      const type = typeOf(inner);
      if (passThroughOk && isLogFields(type)) return;
      context.report({ node, messageId: 'notLiteral' });
    };

    /** Checks an expression whose contextual type is LogFields: a literal, or a LogFields passed on. */
    const checkContextual = (node) => {
      if (!node) return;
      const tsNode = services.esTreeNodeToTSNodeMap.get(node);
      if (!tsNode || !ts.isExpression(tsNode)) return;
      const contextual = checker.getContextualType(tsNode);
      if (contextual && isLogFields(contextual)) checkFields(node, true);
    };

    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && (callee.computed || LEVELS.has(callee.property.name))) {
          if (isLogger(typeOf(callee.object))) {
            const [first] = node.arguments;
            if (first === undefined) return;
            if (first.type !== 'ObjectExpression' && loggable(typeOf(first))) return; // a message only
            return checkFields(first, true);
          }
        }
        for (const argument of node.arguments) if (argument.type !== 'SpreadElement') checkContextual(argument);
      },
      VariableDeclarator(node) {
        checkContextual(node.init);
      },
      ReturnStatement(node) {
        checkContextual(node.argument);
      },
      ArrowFunctionExpression(node) {
        if (node.expression) checkContextual(node.body);
      },
    };
  },
};
