import { terminalText } from './terminal-text';

export interface TreeNode {
  label: string;
  children?: TreeNode[];
}

/**
 * Renders nodes with box-drawing guides; top-level nodes are roots without a guide. Labels
 * carry the api's text: each is shown through terminalText.
 */
export function renderTree(roots: readonly TreeNode[]): string {
  const lines: string[] = [];
  const walk = (nodes: readonly TreeNode[], prefix: string): void => {
    nodes.forEach((node, index) => {
      const last = index === nodes.length - 1;
      lines.push(`${prefix}${last ? '└─ ' : '├─ '}${terminalText(node.label)}`);
      walk(node.children ?? [], `${prefix}${last ? '   ' : '│  '}`);
    });
  };
  for (const root of roots) {
    lines.push(terminalText(root.label));
    walk(root.children ?? [], '');
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
