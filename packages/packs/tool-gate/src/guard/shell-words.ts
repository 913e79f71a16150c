/**
 * Splits one simple shell command into words, honouring single quotes, double quotes and
 * backslashes (no expansion). Returns null when quotes are unbalanced. The push guard only needs
 * the words of `git … push …`; anything richer is the analyser's job.
 */
export function splitShellWords(command: string): string[] | null {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && /["\\$`]/.test(command[index + 1] ?? '')) word += command[++index];
      else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      if (command[index + 1] !== '\n') word += command[index + 1] ?? '';
      index++;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== null) return null;
  if (inWord) words.push(word);
  return words;
}
