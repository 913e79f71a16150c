/**
 * The part of a bash syntax node the shell analyser reads. web-tree-sitter's `Node` has it, and
 * so do the nodes `simpleCommandSyntax` builds for commands too plain to need the parser.
 */
export interface ShellNode {
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly namedChildren: readonly (ShellNode | null)[];
  readonly firstNamedChild: ShellNode | null;
  childForFieldName(fieldName: string): ShellNode | null;
  childrenForFieldName(fieldName: string): readonly (ShellNode | null)[];
  descendantsOfType(type: string): readonly (ShellNode | null)[];
}
