"""ipywidgets shells over the core calls: Ask/Chat widgets, RerankInspector, TuningPanel."""

from ragspine_nb.display.views import register_view
from ragspine_nb.widgets.ask import AskWidget
from ragspine_nb.widgets.chat import ChatWidget
from ragspine_nb.widgets.inspector import RerankInspector
from ragspine_nb.widgets.tuning_panel import TuningPanel

__all__ = ["AskWidget", "ChatWidget", "RerankInspector", "TuningPanel"]

# the core's shortcuts (``agent.widget()``, ``index.tune()``...) build these by kind
register_view("ask", AskWidget)
register_view("chat", ChatWidget)
register_view("inspector", RerankInspector)
register_view("tuning", TuningPanel)
