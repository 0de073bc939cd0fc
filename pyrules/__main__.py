from .console import run

run()
