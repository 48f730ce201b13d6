"""Plain data at the bottom of the core: messages and tool calls, model usage, tasks and
their evaluation criteria, reward information and episode results. Imports no other
package of the core but the foundation modules."""
