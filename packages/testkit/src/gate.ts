/**
 * A shell command that waits until a file named `name` exists in its working directory, then prints
 * `word` (default `ready`). Scripted as the model's `exec_command`, it holds a run inside a tool batch
 * until the test creates the file: a deterministic window for doing something "while the run is running",
 * however slow the machine. A word of its own per gate lets a script tell the runs waiting on different
 * gates apart by the tool result they last got. Uses `node`, which the default command policy allows.
 */
export function waitForFileCommand(name = 'go', word = 'ready'): string {
  const script = `const fs=require('fs');const t=setInterval(()=>{if(fs.existsSync(${JSON.stringify(name)})){clearInterval(t);console.log(${JSON.stringify(word)})}},20)`;
  return `node -e "${script.replace(/"/g, '\\"')}"`;
}
