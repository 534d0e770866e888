"""``python -m montecards`` runs the command-line interface."""

from montecards.cli import main

main()
