"""mazzo environments: the rules engines (pure), their encoders and the PettingZoo faces."""
