"""Wizard's Duel, "Pojedynek czarnoksiężnika" (SPEC section 6, WD-1..WD-4).

The format's rules in one folder: its state (``state``), commands (``commands``), events
(``events``) and play (``play``: set-up, decide, apply and describe of each event, and its
``RULES`` value).  Importing the package imports none of them."""
