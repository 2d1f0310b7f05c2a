// The todo library: the example run's agent adds one story per iteration.
export {};
