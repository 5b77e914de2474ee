import type { Command } from "commander";
import { CliError, exitCodes } from "./client.ts";

/** A command as a shell completes it: the words after `academy` that reach it, its subcommands (with what they do) and its long options. */
interface Entry {
  path: string;
  commands: { name: string; description: string }[];
  options: string[];
}

const longOptions = (command: Command) => command.options.flatMap((o) => (o.long && !o.hidden ? [o.long] : []));

/** Every command two levels deep, each with the global options (but --version) after its own. */
function entriesOf(program: Command): Entry[] {
  const globalOptions = longOptions(program).filter((o) => o !== "--version");
  const entry = (command: Command, path: string): Entry => ({
    path,
    commands: command.commands.map((c) => ({ name: c.name(), description: c.description().split(":")[0] ?? "" })),
    options: path === "" ? longOptions(program) : [...longOptions(command), ...globalOptions],
  });
  return [entry(program, ""), ...program.commands.flatMap((c) => [entry(c, c.name()), ...c.commands.map((sub) => entry(sub, `${c.name()} ${sub.name()}`))])];
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * The shell lines that find the command typed so far, two words (notes add) before one (notes),
 * then choose its words: `cases`, one per command. `first`/`second` are the shell's words after
 * `academy`, present when `hasFirst`/`hasSecond` hold.
 */
function chooseCommand(entries: Entry[], shell: { first: string; second: string; hasFirst: string; hasSecond: string }, cases: string[]): string {
  const { first, second } = shell;
  const twoWords = entries.filter((e) => e.path.includes(" ")).map((e) => quote(e.path));
  return `  local at=""
  if ${shell.hasFirst}; then at="${first}"; fi
  if ${shell.hasSecond}; then
    case "${first} ${second}" in
    ${twoWords.join("|")}) at="${first} ${second}" ;;
    esac
  fi
  case "$at" in
${cases.join("\n")}
  esac`;
}

function bash(program: Command): string {
  const entries = entriesOf(program);
  const cases = entries.map((e) => `    ${quote(e.path)}) words=${quote([...e.commands.map((c) => c.name), ...e.options].join(" "))} ;;`);
  const shell = { first: "${COMP_WORDS[1]}", second: "${COMP_WORDS[2]}", hasFirst: '[ "$COMP_CWORD" -gt 1 ]', hasSecond: '[ "$COMP_CWORD" -gt 2 ]' };
  return `# academy completion for bash: add  source <(academy completion bash)  to ~/.bashrc
_academy() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words
${chooseCommand(entries, shell, cases)}
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _academy academy
`;
}

const described = (commands: Entry["commands"]) => commands.map((c) => quote(`${c.name}:${c.description.replaceAll(":", "\\:")}`)).join(" ");

function zsh(program: Command): string {
  const entries = entriesOf(program);
  const cases = entries.map((e) => `    ${quote(e.path)}) ${e.commands.length ? `subcommands=(${described(e.commands)}); ` : ""}options=(${e.options.join(" ")}) ;;`);
  const shell = { first: "${words[2]}", second: "${words[3]}", hasFirst: "(( CURRENT > 2 ))", hasSecond: "(( CURRENT > 3 ))" };
  return `#compdef academy
# academy completion for zsh: add  source <(academy completion zsh)  to ~/.zshrc, after compinit
_academy() {
  local -a subcommands options
${chooseCommand(entries, shell, cases)}
  (( \${#subcommands} )) && _describe command subcommands
  compadd -- $options
}
compdef _academy academy
`;
}

/** fish's test that the words typed so far reach the command at `path`. */
const fishCondition = (path: string) => (path === "" ? "__fish_use_subcommand" : path.split(" ").map((word) => `__fish_seen_subcommand_from ${word}`).join("; and "));

function fish(program: Command): string {
  const lines = entriesOf(program).flatMap((e) => {
    const when = `-n ${quote(fishCondition(e.path))}`;
    return [...e.commands.map((c) => `complete -c academy ${when} -a ${c.name} -d ${quote(c.description)}`), ...e.options.map((o) => `complete -c academy ${when} -l ${o.slice(2)}`)];
  });
  return `# academy completion for fish: academy completion fish > ~/.config/fish/completions/academy.fish\ncomplete -c academy -f\n${lines.join("\n")}\n`;
}

const shells: Record<string, (program: Command) => string> = { bash, zsh, fish };

/** `academy completion <shell>`: the script that completes academy's commands and options in that shell. */
export function completionScript(program: Command, shell: string): string {
  const write = shells[shell];
  if (!write) throw new CliError(`There is no completion for "${shell}". Choose bash, zsh or fish.`, exitCodes.usage);
  return write(program);
}
