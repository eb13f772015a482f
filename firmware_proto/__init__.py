"""The wire protocol between the shoe's firmware and the station. Pure: no I/O."""
