"""GRPO core: the loss on hand-worked numbers, token log-probs against a naive loop, and one
update on a tiny Qwen2 decoder moving log-probs the way the advantages say."""

from __future__ import annotations

import copy
import math

import pytest
import torch
from torch import Tensor, nn

from models.recipes.grpo_core import grpo_loss, grpo_step, pad_batch, token_logprobs

qwen2 = pytest.importorskip("torchtune.models.qwen2").qwen2

VOCAB = 64


def tiny_qwen2() -> nn.Module:
    torch.manual_seed(0)
    return qwen2(
        vocab_size=VOCAB,
        num_layers=2,
        num_heads=4,
        num_kv_heads=2,
        embed_dim=64,
        intermediate_dim=128,
        max_seq_len=64,
    )


# Two sequences, three tokens. Sequence 0 (A=+1): token 0 is clipped above, token 1 has a
# ratio below 1-eps but A>0 so it is not clipped, token 2 is masked out (and holds values
# that would blow up if it leaked). Sequence 1 (A=-1): token 0 is clipped below, token 1 is
# inside the band, token 2 has a ratio above 1+eps but A<0 so it is not clipped.
LOGP = [[-1.0, -2.0, -3.0], [-1.5, -0.7, -2.2]]
OLD_LOGP = [[-1.5, -1.6, -90.0], [-1.0, -0.8, -2.5]]
REF_LOGP = [[-1.2, -1.9, 80.0], [-1.4, -0.9, -2.0]]
ADVANTAGES = [1.0, -1.0]
MASK = [[True, True, False], [True, True, True]]


def hand_inputs() -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    return (
        torch.tensor(LOGP, requires_grad=True),
        torch.tensor(OLD_LOGP),
        torch.tensor(REF_LOGP),
        torch.tensor(ADVANTAGES),
        torch.tensor(MASK),
    )


def test_grpo_loss_matches_hand_computation() -> None:
    eps, beta = 0.2, 0.1
    # k3 for each kept token: exp(ref - logp) - (ref - logp) - 1
    kl_00 = math.exp(-0.2) + 0.2 - 1  # ref - logp = -1.2 + 1.0
    kl_01 = math.exp(0.1) - 0.1 - 1  # -1.9 + 2.0
    kl_10 = math.exp(0.1) - 0.1 - 1  # -1.4 + 1.5
    kl_11 = math.exp(-0.2) + 0.2 - 1  # -0.9 + 0.7
    kl_12 = math.exp(0.2) - 0.2 - 1  # -2.0 + 2.2
    # surrogates: min(ratio * A, clip(ratio) * A)
    s_00 = 1.2  # ratio e^0.5 = 1.65, A=+1: clipped to 1 + eps
    s_01 = math.exp(-0.4)  # ratio 0.67 < 0.8 with A=+1: the unclipped term is smaller
    s_10 = -0.8  # ratio e^-0.5 = 0.61, A=-1: clipped to -(1 - eps)
    s_11 = -math.exp(0.1)  # ratio 1.105, inside the band
    s_12 = -math.exp(0.3)  # ratio 1.35 > 1.2 with A=-1: the unclipped term is smaller
    seq0 = (-(s_00 - beta * kl_00) - (s_01 - beta * kl_01)) / 2
    seq1 = (-(s_10 - beta * kl_10) - (s_11 - beta * kl_11) - (s_12 - beta * kl_12)) / 3
    expected_loss = (seq0 + seq1) / 2
    expected_kl = (kl_00 + kl_01 + kl_10 + kl_11 + kl_12) / 5
    expected_ratio = (
        math.exp(0.5) + math.exp(-0.4) + math.exp(-0.5) + math.exp(0.1) + math.exp(0.3)
    ) / 5

    logp, old, ref, adv, mask = hand_inputs()
    loss, stats = grpo_loss(logp, old, ref, adv, mask, clip_eps=eps, kl_coef=beta)

    assert loss.item() == pytest.approx(expected_loss, rel=1e-6)
    assert stats["loss"] == pytest.approx(expected_loss, rel=1e-6)
    assert stats["kl"] == pytest.approx(expected_kl, rel=1e-5)
    assert stats["clip_fraction"] == pytest.approx(2 / 5)
    assert stats["ratio_mean"] == pytest.approx(expected_ratio, rel=1e-6)
    assert stats["advantage_mean"] == pytest.approx(0.0)


def test_grpo_loss_gradient_skips_clipped_and_masked_tokens() -> None:
    logp, old, _, adv, mask = hand_inputs()
    loss, _ = grpo_loss(logp, old, None, adv, mask, clip_eps=0.2, kl_coef=0.0)
    loss.backward()
    assert logp.grad is not None
    # Clipped tokens (0,0) and (1,0) and the masked token (0,2) get no gradient.
    assert logp.grad[0, 0].item() == 0.0
    assert logp.grad[1, 0].item() == 0.0
    assert logp.grad[0, 2].item() == 0.0
    # Unclipped token: d/dlogp of -(ratio * A) / n_tokens / B = -ratio * A / 2 / 2.
    assert logp.grad[0, 1].item() == pytest.approx(-math.exp(-0.4) / 4, rel=1e-6)
    assert logp.grad[1, 2].item() == pytest.approx(math.exp(0.3) / 6, rel=1e-6)


def test_grpo_loss_without_kl_ignores_reference() -> None:
    logp, old, _, adv, mask = hand_inputs()
    loss, stats = grpo_loss(logp, old, None, adv, mask, clip_eps=0.2, kl_coef=0.0)
    seq0 = -(1.2 + math.exp(-0.4)) / 2
    seq1 = -(-0.8 - math.exp(0.1) - math.exp(0.3)) / 3
    assert loss.item() == pytest.approx((seq0 + seq1) / 2, rel=1e-6)
    assert stats["kl"] == 0.0


def test_grpo_loss_all_masked_sequence_contributes_zero() -> None:
    logp, old, ref, adv, _ = hand_inputs()
    mask = torch.tensor([[False, False, False], [True, True, True]])
    loss, stats = grpo_loss(logp, old, ref, adv, mask, clip_eps=0.2, kl_coef=0.1)
    loss.backward()
    assert torch.isfinite(loss)
    assert logp.grad is not None and torch.isfinite(logp.grad).all()
    assert torch.all(logp.grad[0] == 0)
    only_seq1, _ = grpo_loss(
        logp[1:], old[1:], ref[1:], adv[1:], mask[1:], clip_eps=0.2, kl_coef=0.1
    )
    # The empty sequence still counts in the mean over sequences, with 0.
    assert loss.item() == pytest.approx(only_seq1.item() / 2, rel=1e-6)

    nothing, stats = grpo_loss(
        logp, old, ref, adv, torch.zeros(2, 3, dtype=torch.bool), clip_eps=0.2, kl_coef=0.1
    )
    assert nothing.item() == 0.0
    assert all(math.isfinite(v) for v in stats.values())


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("old_logp", torch.zeros(2, 4)),
        ("ref_logp", torch.zeros(3, 3)),
        ("advantages", torch.zeros(2, 1)),
        ("mask", torch.ones(2, 2, dtype=torch.bool)),
        ("mask", torch.ones(2, 3)),
    ],
)
def test_grpo_loss_rejects_mismatched_shapes(field: str, bad: Tensor) -> None:
    logp, old, ref, adv, mask = hand_inputs()
    args = {"old_logp": old, "ref_logp": ref, "advantages": adv, "mask": mask, field: bad}
    with pytest.raises(ValueError, match="must"):
        grpo_loss(logp, **args, clip_eps=0.2, kl_coef=0.1)


def test_grpo_loss_needs_reference_when_kl_is_on() -> None:
    logp, old, _, adv, mask = hand_inputs()
    with pytest.raises(ValueError, match="ref_logp"):
        grpo_loss(logp, old, None, adv, mask, kl_coef=0.04)


def naive_logprobs(model: nn.Module, tokens: Tensor) -> Tensor:
    """One forward per position, reading only the last position's logits."""
    out = torch.zeros(tokens.shape, dtype=torch.float32)
    for t in range(1, tokens.shape[1]):
        logits = model(tokens[:, :t])[:, -1]
        logp = torch.log_softmax(logits.float(), dim=-1)
        out[:, t] = logp[torch.arange(tokens.shape[0]), tokens[:, t]]
    return out


@torch.no_grad()
def test_token_logprobs_match_naive_loop() -> None:
    model = tiny_qwen2().eval()
    tokens = torch.randint(0, VOCAB, (3, 10), generator=torch.Generator().manual_seed(1))
    expected = naive_logprobs(model, tokens)

    got = token_logprobs(model, tokens)
    assert got.dtype == torch.float32
    assert torch.all(got[:, 0] == 0)
    torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(token_logprobs(model, tokens, chunk=2), expected, atol=1e-5, rtol=0)

    # Chunked output (uneven chunks: 4, 4, 2) and torchtune's [*hidden, logits] lists.
    model.set_num_output_chunks(3)
    assert isinstance(model(tokens), list)
    torch.testing.assert_close(token_logprobs(model, tokens), expected, atol=1e-5, rtol=0)
    model.output_hidden_states = [1]
    torch.testing.assert_close(token_logprobs(model, tokens), expected, atol=1e-5, rtol=0)
    model.set_num_output_chunks(0)
    torch.testing.assert_close(token_logprobs(model, tokens), expected, atol=1e-5, rtol=0)


def test_pad_batch_right_pads() -> None:
    tokens, mask = pad_batch([([5, 6, 7], [False, True, True]), ([8], [True])], pad_id=0)
    assert tokens.tolist() == [[5, 6, 7], [8, 0, 0]]
    assert mask.tolist() == [[False, True, True], [True, False, False]]
    assert tokens.dtype == torch.long and mask.dtype == torch.bool
    with pytest.raises(ValueError, match="mask entries"):
        pad_batch([([1, 2], [True])], pad_id=0)


PROMPT = [1, 2, 3, 4, 5, 6]


def rollout_batch(model: nn.Module, completions: list[list[int]], advantages: list[float]) -> dict:
    """Prompt + completion per sequence, trained on the completion only."""
    tokens, mask = pad_batch(
        [(PROMPT + c, [False] * len(PROMPT) + [True] * len(c)) for c in completions], pad_id=0
    )
    with torch.no_grad():
        old_logp = token_logprobs(model, tokens)
    return {
        "tokens": tokens,
        "mask": mask,
        "advantages": torch.tensor(advantages),
        "old_logp": old_logp,
    }


def summed_logp(model: nn.Module, batch: dict) -> Tensor:
    with torch.no_grad():
        return (token_logprobs(model, batch["tokens"]) * batch["mask"]).sum(dim=1)


def test_one_step_moves_logprobs_with_the_advantages() -> None:
    model = tiny_qwen2()
    ref = copy.deepcopy(model).requires_grad_(False)
    batch = rollout_batch(model, [[10, 11, 12, 13], [20, 21, 22, 23, 24]], [1.0, -1.0])
    before = summed_logp(model, batch)

    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    stats = grpo_step(model, optimizer, batch, ref_model=ref, clip_eps=0.2, kl_coef=0.04)
    after = summed_logp(model, batch)

    assert after[0] > before[0]
    assert after[1] < before[1]
    assert stats["ratio_mean"] == pytest.approx(1.0, abs=1e-5)  # first step is on-policy
    assert stats["kl"] == pytest.approx(0.0, abs=1e-6)  # reference equals the policy
    assert stats["clip_fraction"] == 0.0
    assert stats["grad_norm"] > 0
    assert all(p.grad is None for p in model.parameters())


def test_zero_advantages_without_kl_leave_parameters_unchanged() -> None:
    model = tiny_qwen2()
    batch = rollout_batch(model, [[10, 11, 12], [20, 21]], [0.0, 0.0])
    before = [p.detach().clone() for p in model.parameters()]

    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.0)
    stats = grpo_step(model, optimizer, batch, clip_eps=0.2, kl_coef=0.0)

    assert stats["loss"] == 0.0
    assert stats["grad_norm"] == 0.0
    for old, new in zip(before, model.parameters(), strict=True):
        assert torch.equal(old, new)


class RecordingOptimizer:
    """Stands in for an optimiser: keeps the gradients it was asked to apply."""

    def __init__(self, model: nn.Module) -> None:
        self.model = model
        self.grads: list[Tensor] = []

    def step(self) -> None:
        self.grads = [p.grad.clone() for p in self.model.parameters()]

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.model.zero_grad(set_to_none=set_to_none)


@pytest.mark.parametrize("micro_batch_size", [1, 3])
def test_micro_batches_give_full_batch_gradients(micro_batch_size: int) -> None:
    model = tiny_qwen2()
    ref = tiny_qwen2()  # same seed, then nudged so the KL term is not trivially zero
    with torch.no_grad():
        for p in ref.parameters():
            p.add_(0.01 * torch.randn_like(p))
    completions = [[10, 11, 12, 13], [20, 21], [30, 31, 32, 33, 34, 35], [40, 41, 42]]
    batch = rollout_batch(model, completions, [1.0, -0.5, 0.25, -0.75])
    # Off-policy behaviour log-probs, so ratios differ from 1 and some tokens clip.
    batch["old_logp"] = batch["old_logp"] + 0.3 * torch.randn(batch["old_logp"].shape)
    kwargs = {"ref_model": ref, "clip_eps": 0.2, "kl_coef": 0.04, "max_grad_norm": None}

    full = RecordingOptimizer(model)
    full_stats = grpo_step(model, full, batch, **kwargs)
    micro = RecordingOptimizer(model)
    micro_stats = grpo_step(model, micro, batch, micro_batch_size=micro_batch_size, **kwargs)

    for g_full, g_micro in zip(full.grads, micro.grads, strict=True):
        torch.testing.assert_close(g_micro, g_full, atol=1e-6, rtol=1e-5)
    assert full_stats["clip_fraction"] > 0
    for key, value in full_stats.items():
        assert micro_stats[key] == pytest.approx(value, rel=1e-5, abs=1e-6), key
