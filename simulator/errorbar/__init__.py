"""A local, seeded copy of the errorbar eval-run queue (evalqueue-CONTRACT.md): bake-offs of a
baseline against candidates on logged traffic, judged twice with the answers swapped, criterion
runs, assertions, the gate and compare. Imports no product package."""
