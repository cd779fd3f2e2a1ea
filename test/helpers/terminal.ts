/**
 * Runs a command in a detached tmux session: a real terminal, so TTY-only behaviour (prompts,
 * spinners) is what the test sees. Needs tmux on PATH (CI installs it).
 */
import { execFileSync } from 'node:child_process';

export interface TerminalOptions {
  env: Record<string, string>;
  /** Working directory of the command. */
  cwd?: string;
  /** Each answer is typed (plus Enter) once its prompt shows on the screen, in order. */
  answers?: Array<{ prompt: RegExp; line: string }>;
  /** The screen to wait for at the end; the command's exit status shows as `exit=N`. */
  until: RegExp;
  timeoutMs?: number;
  /** The pane's size (default 160 × 20). */
  width?: number;
  height?: number;
  /** Capture lines the terminal wrapped as the one line the program wrote, to see how wide it was. */
  joinWrapped?: boolean;
}

export interface TerminalRun {
  /** The screen when `until` matched (or at the timeout). */
  screen: string;
  /** Every distinct screen seen while polling, in order: the frames of a spinner. */
  frames: string[];
  /** The pane's title at the end (what an OSC 0 or 2 sequence sets). */
  title: string;
}

const POLL_MS = 40;

export async function inTerminal(command: string, o: TerminalOptions): Promise<TerminalRun> {
  const name = `txa-test-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  const assigns = Object.entries(o.env)
    .map(([k, v]) => `${k}='${v}'`)
    .join(' ');
  // ora draws nothing animated when CI is set, so the command runs without it.
  const cwd = o.cwd ? ['-c', o.cwd] : [];
  const size = ['-x', String(o.width ?? 160), '-y', String(o.height ?? 20)];
  // The server of a session just killed may still be exiting and refuse a new one: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      tmux('new-session', '-d', '-s', name, ...size, ...cwd, `env -u CI ${assigns} ${command}; echo "exit=$?"; sleep 60`);
      break;
    } catch (err) {
      if (attempt === 5) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
  const frames: string[] = [];
  const screen = () => {
    const s = tmux('capture-pane', '-p', ...(o.joinWrapped ? ['-J'] : []), '-t', name);
    if (s !== frames.at(-1)) frames.push(s);
    return s;
  };
  const deadline = Date.now() + (o.timeoutMs ?? 10_000);
  const until = async (re: RegExp) => {
    while (!re.test(screen()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, POLL_MS));
  };
  try {
    for (const { prompt, line } of o.answers ?? []) {
      await until(prompt);
      tmux('send-keys', '-t', name, line, 'Enter');
    }
    await until(o.until);
    return { screen: screen(), frames, title: tmux('display-message', '-p', '-t', name, '#{pane_title}').trim() };
  } finally {
    tmux('kill-session', '-t', name);
  }
}
