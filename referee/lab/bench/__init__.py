"""`bench`: the solver timed in process, against another checkout, against the SAT peer;
the bundle's start-up and the box's cost; BENCHMARKS.md written from their figures."""
