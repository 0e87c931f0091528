/** An agent that asks the caller a question before it finishes: its answer starts the `reply_steps` turn. */
export const BOOKER_TOML = `
[[agents]]
name = "booker"
description = "Asks for a city, then books"
[agents.executor]
type = "script"
steps = [{ status = "working" }, { status = "input-required", text = "Which city?" }]
reply_steps = [{ artifact = { text = "Booked." } }, { status = "completed" }]
`;
