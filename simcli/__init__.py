"""simcli: headless tournaments and simulations for library-themed tabletop games."""

__version__ = "0.1.0"
