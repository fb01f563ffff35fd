// The part of sucrase's parser (an internal entry point of the sucrase package, which ships its types under
// dist/types) that the module rewrite reads: tokens with their roles, and the scopes that tell a function body.

declare module 'sucrase/dist/parser' {
  export type SucraseToken = {
    start: number;
    end: number;
    /** Set on identifiers: how the name is used (sucrase's IdentifierRole); null on property names and keywords. */
    identifierRole: number | null;
    /** Brace depth (0: the program's top level). */
    scopeDepth: number;
    /** Inside a TypeScript type. */
    isType: boolean;
  };
  export type SucraseScope = { startTokenIndex: number; endTokenIndex: number; isFunctionScope: boolean };
  export function parse(input: string, isJSXEnabled: boolean, isTypeScriptEnabled: boolean, isFlowEnabled: boolean): { tokens: SucraseToken[]; scopes: SucraseScope[] };
}
