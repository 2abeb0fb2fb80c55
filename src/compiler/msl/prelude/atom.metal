// metalcuda MSL prelude: atomics.
