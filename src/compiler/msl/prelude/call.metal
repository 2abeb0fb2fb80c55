// metalcuda MSL prelude: calls, printf, assertions.
