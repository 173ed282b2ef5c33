"""The math of one GRPO update with CFRR advantages: token log-probabilities, the clipped
surrogate with a k3 KL penalty, and one optimiser step with gradient accumulation.

Tensors in, tensors (or floats) out; the RL recipe owns data loading, checkpoints and logging.
Shapes: B sequences, T positions, V vocabulary entries.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import torch
from torch import Tensor, nn

__all__ = ["grpo_loss", "grpo_step", "pad_batch", "token_logprobs"]


def _logit_pieces(out: Tensor | list, seq_len: int) -> list[Tensor]:
    """The logits of a TransformerDecoder output as time-ordered pieces [B, t_i, V].

    torchtune 0.6.1 returns a tensor, a list of chunks (``num_output_chunks > 0``), or, when
    ``output_hidden_states`` is set, ``[*hidden, logits]`` where ``logits`` may itself be a
    list of chunks. Chunks cover exactly ``seq_len`` positions; hidden states plus logits
    cover a multiple of it, which tells the two lists apart without trusting attributes.
    """
    if isinstance(out, Tensor):
        return [out]
    if isinstance(out[-1], list):
        return list(out[-1])
    if sum(piece.shape[1] for piece in out) == seq_len:
        return list(out)
    return [out[-1]]


def token_logprobs(model: nn.Module, tokens: Tensor, *, chunk: int | None = None) -> Tensor:
    """Log-probability of each token given the ones before it, in float32.

    Args:
        model: a torchtune ``TransformerDecoder`` (or anything called as ``model(tokens)`` that
            returns logits [B, T, V], a list of chunks of them along dim 1, or torchtune's
            ``[*hidden_states, logits]``).
        tokens: LongTensor [B, T].
        chunk: if set, run the model on at most this many sequences at a time; this bounds
            peak memory when computing behaviour or reference log-probs under ``no_grad``.

    Returns:
        FloatTensor [B, T]: position t holds log p(tokens[t] | tokens[:t]); position 0 is 0.
    """
    if tokens.dim() != 2:
        raise ValueError(f"tokens must be a [B, T] tensor, got shape {tuple(tokens.shape)}.")
    if chunk is not None and chunk < 1:
        raise ValueError(f"chunk must be a positive number of sequences, got {chunk}.")
    rows = [tokens] if chunk is None else list(tokens.split(chunk, dim=0))
    out_rows = []
    for row_tokens in rows:
        seq_len = row_tokens.shape[1]
        pieces = _logit_pieces(model(row_tokens), seq_len)
        lps = [row_tokens.new_zeros((row_tokens.shape[0], 1), dtype=torch.float32)]
        start = 0
        for piece in pieces:
            end = start + piece.shape[1]
            # Logits at position p predict token p + 1; the last position predicts nothing.
            targets = row_tokens[:, start + 1 : end + 1]
            n = targets.shape[1]
            if n:
                # Per piece, so with chunked output the full [B, T, V] float32 never exists;
                # .float() is a no-op on torchtune's unchunked logits (already upcast).
                logp = torch.log_softmax(piece[:, :n].float(), dim=-1)
                lps.append(logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1))
            start = end
        if start != seq_len:
            raise ValueError(
                f"The model returned logits for {start} positions but the input has {seq_len}."
            )
        out_rows.append(torch.cat(lps, dim=1))
    return torch.cat(out_rows, dim=0)


def _check_shapes(
    logp: Tensor,
    old_logp: Tensor,
    ref_logp: Tensor | None,
    advantages: Tensor,
    mask: Tensor,
) -> None:
    if logp.dim() != 2:
        raise ValueError(f"logp must be a [B, T] tensor, got shape {tuple(logp.shape)}.")
    named = {"old_logp": old_logp, "mask": mask}
    if ref_logp is not None:
        named["ref_logp"] = ref_logp
    for name, tensor in named.items():
        if tensor.shape != logp.shape:
            raise ValueError(
                f"{name} has shape {tuple(tensor.shape)} but logp has {tuple(logp.shape)}; "
                "they must match."
            )
    if advantages.shape != logp.shape[:1]:
        raise ValueError(
            f"advantages must have shape ({logp.shape[0]},), one per sequence, "
            f"got {tuple(advantages.shape)}."
        )
    if mask.dtype != torch.bool:
        raise ValueError(f"mask must be a bool tensor, got {mask.dtype}.")


def grpo_loss(
    logp: Tensor,
    old_logp: Tensor,
    ref_logp: Tensor | None,
    advantages: Tensor,
    mask: Tensor,
    *,
    clip_eps: float = 0.2,
    kl_coef: float = 0.04,
) -> tuple[Tensor, dict[str, float]]:
    """The GRPO objective (DeepSeekMath normalisation) as a loss to minimise.

    Per token: ``ratio = exp(logp - old_logp)``, surrogate ``min(ratio*A, clip(ratio)*A)``,
    KL to the reference by the k3 estimator ``exp(ref - logp) - (ref - logp) - 1``, loss
    ``-(surrogate - kl_coef * kl)``. Averaged over each sequence's mask tokens, then over all
    B sequences; a sequence without mask tokens contributes 0.

    Args:
        logp: [B, T] log-probs under the policy being trained (carries the gradient).
        old_logp: [B, T] behaviour log-probs from before the step.
        ref_logp: [B, T] reference log-probs; ignored and may be None when ``kl_coef == 0``.
        advantages: [B], one per sequence.
        mask: [B, T] bool, True on trained tokens.

    Returns:
        The scalar loss, and stats ``loss``, ``kl`` (mean k3 over mask tokens; 0.0 when
        ``kl_coef == 0``), ``clip_fraction`` (mask tokens where the clipped term was chosen
        and differs), ``ratio_mean`` (over mask tokens) and ``advantage_mean`` (over sequences).
        Token means are 0.0 when there are no mask tokens.
    """
    use_kl = kl_coef != 0
    if use_kl and ref_logp is None:
        raise ValueError("ref_logp is required when kl_coef is not 0; pass it or set kl_coef=0.")
    _check_shapes(logp, old_logp, ref_logp if use_kl else None, advantages, mask)

    # Zero the log-ratio off the mask before exp: padding may hold anything, and a where()
    # after exp would still send NaN gradients through an overflowed exp.
    log_ratio = torch.where(mask, logp - old_logp.detach(), 0.0)
    ratio = torch.exp(log_ratio)
    adv = advantages.detach().to(ratio.dtype).unsqueeze(1)
    unclipped = ratio * adv
    clipped = torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * adv
    surrogate = torch.minimum(unclipped, clipped)
    per_token = -surrogate
    if use_kl and ref_logp is not None:
        ref_gap = torch.where(mask, ref_logp.detach() - logp, 0.0)
        kl = torch.exp(ref_gap) - ref_gap - 1.0
        per_token = per_token + kl_coef * kl

    weights = mask.to(per_token.dtype)
    tokens_per_seq = weights.sum(dim=1)
    per_seq = (per_token * weights).sum(dim=1) / tokens_per_seq.clamp(min=1.0)
    loss = per_seq.mean()

    with torch.no_grad():
        n_tokens = max(weights.sum().item(), 1.0)
        stats = {
            "loss": loss.item(),
            "kl": (kl * weights).sum().item() / n_tokens if use_kl else 0.0,
            "clip_fraction": ((clipped < unclipped) & mask).sum().item() / n_tokens,
            "ratio_mean": (ratio * weights).sum().item() / n_tokens,
            "advantage_mean": advantages.float().mean().item(),
        }
    return loss, stats


def grpo_step(
    model: nn.Module,
    optimizer: torch.optim.Optimizer,
    batch: Mapping[str, Tensor],
    *,
    ref_model: nn.Module | None = None,
    clip_eps: float,
    kl_coef: float,
    max_grad_norm: float | None = 1.0,
    micro_batch_size: int | None = None,
) -> dict[str, float]:
    """One optimiser step of GRPO on a batch of rollouts.

    Args:
        model: the policy, in whatever train/eval mode the caller chose.
        optimizer: steps ``model``'s parameters; its gradients are zeroed afterwards.
        batch: ``tokens`` [B, T] long, right-padded; ``mask`` [B, T] bool, True on trained
            assistant tokens; ``advantages`` [B]; ``old_logp`` [B, T] from
            :func:`token_logprobs` under ``no_grad`` before the step. Optionally ``ref_logp``
            [B, T], used when ``ref_model`` is None.
        ref_model: frozen reference policy for the KL term; run under ``no_grad``.
        clip_eps, kl_coef: see :func:`grpo_loss`.
        max_grad_norm: clip the total gradient norm to this; None reports it without clipping.
        micro_batch_size: accumulate gradients over micro-batches of this many sequences,
            scaled so that the gradient equals the full-batch one.

    Returns:
        The :func:`grpo_loss` stats over the whole batch, plus ``grad_norm`` (before clipping).
    """
    missing = {"tokens", "mask", "advantages", "old_logp"} - set(batch)
    if missing:
        raise ValueError(f"The batch lacks {sorted(missing)}; build it with these keys.")
    tokens, mask = batch["tokens"], batch["mask"]
    advantages, old_logp = batch["advantages"], batch["old_logp"]
    if tokens.dim() != 2:
        raise ValueError(f"tokens must be a [B, T] tensor, got shape {tuple(tokens.shape)}.")
    use_kl = kl_coef != 0
    if use_kl and ref_model is None and "ref_logp" not in batch:
        raise ValueError("kl_coef is not 0, so pass ref_model or put ref_logp in the batch.")
    if micro_batch_size is not None and micro_batch_size < 1:
        raise ValueError(f"micro_batch_size must be positive, got {micro_batch_size}.")

    n_seqs = tokens.shape[0]
    step = micro_batch_size or n_seqs
    totals = {"loss": 0.0, "kl": 0.0, "clip_fraction": 0.0, "ratio_mean": 0.0}
    n_tokens_total = 0
    for start in range(0, n_seqs, step):
        rows = slice(start, start + step)
        mb_mask = mask[rows]
        # Causal model: positions after the last trained token change nothing, so drop them.
        trained_cols = mb_mask.any(dim=0).nonzero()
        width = int(trained_cols.max().item()) + 1 if trained_cols.numel() else 1
        cols = slice(0, width)
        mb_tokens = tokens[rows, cols]
        mb_mask = mb_mask[:, cols]
        ref_logp = None
        if use_kl:
            if ref_model is not None:
                with torch.no_grad():
                    ref_logp = token_logprobs(ref_model, mb_tokens)
            else:
                ref_logp = batch["ref_logp"][rows, cols]
        # Every micro-batch runs forward and backward, even one without trained tokens, so
        # data-parallel ranks stay in step on collectives.
        logp = token_logprobs(model, mb_tokens)
        loss, stats = grpo_loss(
            logp,
            old_logp[rows, cols],
            ref_logp,
            advantages[rows],
            mb_mask,
            clip_eps=clip_eps,
            kl_coef=kl_coef,
        )
        share = mb_tokens.shape[0] / n_seqs
        (loss * share).backward()
        n_tok = int(mb_mask.sum().item())
        n_tokens_total += n_tok
        totals["loss"] += stats["loss"] * share
        for key in ("kl", "clip_fraction", "ratio_mean"):
            totals[key] += stats[key] * n_tok

    params = [p for p in model.parameters() if p.requires_grad]
    grad_norm = torch.nn.utils.clip_grad_norm_(
        params, max_grad_norm if max_grad_norm is not None else math.inf
    )
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)

    denom = max(n_tokens_total, 1)
    return {
        "loss": totals["loss"],
        "kl": totals["kl"] / denom,
        "clip_fraction": totals["clip_fraction"] / denom,
        "ratio_mean": totals["ratio_mean"] / denom,
        "advantage_mean": advantages.float().mean().item(),
        "grad_norm": float(grad_norm),
    }


def pad_batch(sequences: list[tuple[list[int], list[bool]]], pad_id: int) -> tuple[Tensor, Tensor]:
    """Right-pad token lists and their masks to the longest sequence.

    Returns:
        LongTensor [B, T] of tokens (``pad_id`` after each sequence) and BoolTensor [B, T]
        mask (False on padding).
    """
    if not sequences:
        raise ValueError("pad_batch needs at least one sequence.")
    for i, (toks, flags) in enumerate(sequences):
        if len(toks) != len(flags):
            raise ValueError(
                f"Sequence {i} has {len(toks)} tokens but {len(flags)} mask entries; "
                "give one mask entry per token."
            )
    width = max(len(toks) for toks, _ in sequences)
    tokens = torch.full((len(sequences), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(sequences), width), dtype=torch.bool)
    for i, (toks, flags) in enumerate(sequences):
        tokens[i, : len(toks)] = torch.tensor(toks, dtype=torch.long)
        mask[i, : len(flags)] = torch.tensor(flags, dtype=torch.bool)
    return tokens, mask
