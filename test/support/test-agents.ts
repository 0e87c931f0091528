/**
 * The agents the A2A tests talk to, one per lifecycle path, as a config file would declare them.
 * `echo` is first, so it is the primary agent.
 */
export const TEST_AGENTS_TOML = `
[[agents]]
name = "echo"
description = "Echoes in three chunks"
[agents.executor]
type = "echo"
chunks = 3

[[agents]]
name = "slow"
description = "Echoes in five chunks, 300 ms apart"
[agents.executor]
type = "echo"
chunks = 5
delay_ms = 300

[[agents]]
name = "ask"
description = "Always needs more input"
[agents.executor]
type = "script"
steps = [{ status = "working" }, { status = "input-required", text = "Which city?" }]

[[agents]]
name = "broken"
description = "Throws mid-turn"
[agents.executor]
type = "script"
steps = [{ status = "working" }, { throw = "boom" }]

[[agents]]
name = "replier"
description = "Answers with a message, no task"
[agents.executor]
type = "script"
steps = [{ message = "direct answer" }]

[[agents]]
name = "picky"
description = "Produces images only"
output_modes = ["image/png"]
[agents.executor]
type = "echo"
`;

/** A turn a worker dies in: `long` streams one chunk per character of its input (up to 20), 500 ms apart. */
export const LONG_AGENT_TOML = `
[[agents]]
name = "long"
description = "Echoes in twenty chunks, 500 ms apart"
[agents.executor]
type = "echo"
chunks = 20
delay_ms = 500
`;

/** A dead worker's turn found stalled within seconds: its lock lasts `lockMs`, checked every `stalledMs`. */
export const STALL_TIMINGS = { lockMs: 1_500, stalledMs: 1_000 };

export const QUICK_STALL_TOML = `
[queue]
lock_duration_ms = ${STALL_TIMINGS.lockMs}
stalled_interval_ms = ${STALL_TIMINGS.stalledMs}
`;
