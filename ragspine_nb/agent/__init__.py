"""The agent layer: security gate, slot scanning, the query tool and answers."""

from ragspine_nb.agent.query_tools import execute_query_metric
from ragspine_nb.agent.security_gate import SecurityGate
from ragspine_nb.agent.structured import StructuredAnswer, answer_structured

__all__ = ["execute_query_metric", "SecurityGate", "StructuredAnswer", "answer_structured"]
