"""Training: torchtune configs, the GRPO-CFRR recipe, dataset adapters."""
