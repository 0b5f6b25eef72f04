"""What every stage stands on: errors a user can act on, problem reports, limits, project paths,
atomic writes and the cores a run may use."""
