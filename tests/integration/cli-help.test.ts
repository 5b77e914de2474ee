import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { freshConfig, runCli, sourceCli } from "./cli-run.ts";

const academy = (...args: string[]) => runCli(sourceCli, args);

describe("the CLI's help", () => {
  it("shows examples, the environment variables and the exit codes", async () => {
    const help = await academy("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Examples:\n  $ academy login\n");
    expect(help.stdout).toContain("ACADEMY_TOKEN=acd_… academy notes --jq '.notes[].title'");
    for (const variable of ["ACADEMY_URL", "ACADEMY_TOKEN", "XDG_CONFIG_HOME", "VISUAL, EDITOR", "CHROME_PATH", "NO_COLOR"]) expect(help.stdout).toMatch(new RegExp(`^  ${variable} `, "m"));
    expect(help.stdout).toContain("Exit codes:\n  0  done\n  1  failed");
    expect(help.stdout).toContain("  3  not signed in, or the token was refused\n  4  not found\n");
  });

  it("answers a mistyped command with the one it meant, exit 2", async () => {
    const top = await academy("notse");
    expect(top.code).toBe(2);
    expect(top.stderr).toContain("error: unknown command 'notse'\n(Did you mean notes?)");
    expect(await academy("notes", "lsit")).toMatchObject({ code: 2, stderr: 'Error: "lsit" is not an academy notes command. Did you mean academy notes list? See academy notes --help.\n' });
    expect(await academy("courses", "shwo", "react-fundamentals")).toMatchObject({ code: 2, stderr: expect.stringContaining("Did you mean academy courses show?") });
    // Nothing near it: no guess, but never commander's "too many arguments for 'list'".
    expect(await academy("notes", "frob")).toMatchObject({ code: 2, stderr: 'Error: "frob" is not an academy notes command. See academy notes --help.\n' });
    const page = await runCli(sourceCli, ["open", "note", "--server", "http://127.0.0.1:9"], { XDG_CONFIG_HOME: await freshConfig() });
    expect(page.code).toBe(2);
    expect(page.stderr).toContain('There is no page "note". Did you mean notes?');
  });
});

describe("academy completion", () => {
  it("prints a bash script that completes commands, subcommands and their options", async () => {
    const script = await academy("completion", "bash");
    expect(script.code).toBe(0);
    const file = path.join(await freshConfig(), "academy.bash");
    await writeFile(file, script.stdout);
    const complete = async (...words: string[]) => {
      const shell = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _academy; echo "\${COMPREPLY[*]}"`;
      return (await promisify(execFile)("bash", ["-c", shell])).stdout.trim();
    };
    expect(await complete("academy", "no")).toBe("notes");
    expect(await complete("academy", "notes", "e")).toBe("edit export");
    expect(await complete("academy", "notes", "add", "--ti")).toBe("--title");
    expect(await complete("academy", "receipts", "x", "--p")).toBe("--pdf");
    expect(await complete("academy", "--to")).toBe("--token");
  });

  it("completes in a real zsh: the script sourced after compinit, Tab pressed in an interactive shell", { timeout: 60_000 }, async () => {
    const script = path.join(await freshConfig(), "academy.zsh");
    await writeFile(script, (await academy("completion", "zsh")).stdout);
    // zsh drives an interactive zsh through a pseudo-terminal (zsh/zpty): each line is typed, Tab
    // pressed, then " END" and Enter run it; \`academy\` there prints the words it was given after
    // "RAN:" (written split, so the echo of its own definition does not end a read).
    const typed = ["academy no", "academy notes ad", "academy notes add --ti", "academy orders --st", "academy websites list --sta"];
    const driver = [
      "zmodload zsh/zpty",
      "zpty -b shell 'zsh -f -i'",
      `zpty -w shell 'PS1=""; bindkey -e; setopt nobeep; autoload -Uz compinit; compinit -u -D; source ${script}; academy() { print -r -- "RA""N:$*" }'`,
      // Each read waits for that line's answer, so no timing is guessed.
      ...typed.flatMap((line) => [`zpty -w -n shell $'${line}\\t END\\n'`, "zpty -r shell chunk '*RAN:*END*'", 'print -r -- "$chunk"']),
      "zpty -d shell",
    ].join("\n");
    const { stdout } = await promisify(execFile)("zsh", ["-f", "-c", driver], { timeout: 30_000 });
    const ran = [...stdout.matchAll(/RAN:(.*?) ?END/g)].map((m) => (m[1] ?? "").trim());
    expect(ran).toEqual(["notes", "notes add", "notes add --title", "orders --status", "websites list --state"]);
  });

  it("completes in a real fish, asked as fish asks (complete -C)", async () => {
    const script = path.join(await freshConfig(), "academy.fish");
    await writeFile(script, (await academy("completion", "fish")).stdout);
    const complete = async (line: string) => (await promisify(execFile)("fish", ["--no-config", "-c", `source ${script}; complete -C '${line}'`])).stdout;
    expect(await complete("academy no")).toBe("notes\tyour notes\n");
    expect(await complete("academy notes ad")).toBe("add\twrite a note\n");
    expect(await complete("academy notes add --ti")).toBe("--title\n");
    expect(await complete("academy orders --st")).toBe("--status\n");
  });

  it("prints zsh and fish scripts, and names the shells it knows for any other", async () => {
    const zsh = await academy("completion", "zsh");
    expect(zsh.stdout).toMatch(/^#compdef academy\n/);
    expect(zsh.stdout).toContain("'notes add') options=(--title --file --lesson --server --json --jq --debug --token) ;;");
    expect(zsh.stdout).toContain("compdef _academy academy\n");
    const fish = await academy("completion", "fish");
    expect(fish.stdout).toContain("complete -c academy -n '__fish_use_subcommand' -a notes -d 'your notes'\n");
    expect(fish.stdout).toContain("complete -c academy -n '__fish_seen_subcommand_from notes; and __fish_seen_subcommand_from add' -l title\n");
    expect(await academy("completion", "tcsh")).toMatchObject({ code: 2, stderr: 'Error: There is no completion for "tcsh". Choose bash, zsh or fish.\n' });
  });
});
