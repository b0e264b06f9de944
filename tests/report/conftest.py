import sys
from pathlib import Path

# the synthetic-record helper lives with the statistics tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "stats"))
