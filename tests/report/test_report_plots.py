import numpy as np
import pytest
from synth_records import self_play, solo, two_player_round_robin

from simcli.report.api import write_report

PNG = b"\x89PNG\r\n\x1a\n"


def _check_pngs(folder, summary_md):
    files = sorted(p.name for p in (folder / "plots").glob("*.png"))
    assert files
    assert not list(folder.glob("*.png"))
    for name in files:
        data = (folder / "plots" / name).read_bytes()
        assert data[:8] == PNG, name
        assert len(data) > 3000, name
        assert f"](plots/{name})" in summary_md, name
    return files


@pytest.mark.slow
def test_plots_for_variants_and_strategies(tmp_path):
    rng = np.random.default_rng(0)
    recs = []
    for variant, adv in (("base", 0.0), ("first_player_bonus", 0.4)):
        recs += two_player_round_robin(
            {"A": 0.0, "B": -0.3, "C": -0.7}, 30, seat_advantage=adv, rng=rng, variant=variant
        )
        recs += self_play("A", 40, p_seat0=0.55, rng=rng, variant=variant)
    write_report(recs, tmp_path, plots=True)
    files = _check_pngs(tmp_path, (tmp_path / "report.md").read_text())
    assert set(files) >= {
        "winrate_matrix_base-2p.png",
        "winrate_matrix_first_player_bonus-2p.png",
        "seat_balance.png",
        "seat_bias_strategies.png",
        "ratings.png",
        "score_distributions.png",
    }


@pytest.mark.slow
def test_plots_for_solitaire(tmp_path):
    write_report(solo({"greedy": 3.0, "random": 0.0}, 30), tmp_path, plots=True)
    files = _check_pngs(tmp_path, (tmp_path / "report.md").read_text())
    assert files == ["score_distributions.png"]
