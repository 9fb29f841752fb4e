"""Rome & Carthage (Jean-René Vernes; Miro 1954, Grosso Modo 2012)."""
