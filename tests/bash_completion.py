"""What bash's completion of `knockboard` offers for a command line typed so far: the
completion script (`knockboard completion bash`) sourced in a real bash, its function called
as bash calls it on Tab."""

import shlex
import subprocess


def complete(script, line, env=None):
    """The words COMPREPLY holds after Tab at the end of `line`, in bash's order."""
    words = line.split(" ")
    program = (f"source {shlex.quote(str(script))}\n"
               f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})\n"
               f"COMP_CWORD={len(words) - 1}\nCOMP_LINE={shlex.quote(line)}\n"
               "COMP_POINT=${#COMP_LINE}\n"
               "$(complete -p knockboard | sed 's/.* -F \\([^ ]*\\) .*/\\1/')\n"
               'printf "%s\\n" "${COMPREPLY[@]}"\n')
    proc = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=60,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()
